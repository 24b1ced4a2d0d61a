import type { ListItem } from '../../session-groups';

/**
 * First guesses of the virtualised list's line heights (a project header, a row and each extra line a
 * row may show); the list then measures each row as drawn, since titles wrap to two lines and figures
 * to a second line in a narrow list.
 */
const HEADER_PX = 30;
const ROW_PX = 66;
const EXTRA_LINE_PX = 17;
/** About this many characters fit on a title line at the default width. */
const TITLE_LINE_CHARS = 34;

/** A stable key for a line of the list (a project header or a session row). */
export const itemId = (i: ListItem) => i.id;
/** The line's element id, for aria-activedescendant. */
export const domId = (i: ListItem) => `sl-${hash(itemId(i))}`;

/** The height a line likely takes, from the extra lines its row shows. */
export function sizeOf(item: ListItem | undefined): number {
  if (!item) return ROW_PX;
  if (item.kind === 'group') return HEADER_PX;
  const r = item.row;
  const twoLineTitle = (r.title?.length ?? 0) > TITLE_LINE_CHARS;
  const soon = r.kept !== null;
  return ROW_PX + (twoLineTitle ? EXTRA_LINE_PX : 0) + (r.forkOf ? EXTRA_LINE_PX : 0) + (soon ? EXTRA_LINE_PX : 0) + (r.matched ? EXTRA_LINE_PX : 0) + (r.snippet?.length ? EXTRA_LINE_PX : 0) + (r.warning && !r.problem ? EXTRA_LINE_PX : 0);
}

/** A short stable id for an element (paths are not valid ids). */
function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}
