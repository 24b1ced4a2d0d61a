import type { SessionRow } from '@glassbox/contract';
import { projectKey } from './labels';

export interface Group {
  key: string;
  label: string;
  /** The working directory as the first row recorded it (for the tooltip). */
  cwd: string;
  rows: SessionRow[];
}

/**
 * One line of the virtualised list: a project header or a session. `id` is made once per list: the
 * cursor's index and the virtualiser's keys read it for every line at each keystroke.
 */
export type ListItem =
  | { kind: 'group'; id: string; group: Group; collapsed: boolean }
  /** `group`: the project header the row is under; `project`: the project named on the row itself, when it is its project's only session (no header for one row). */
  | { kind: 'row'; id: string; row: SessionRow; group: Group | null; project: string | null };

/**
 * Projects in the order of their first row in the sorted list (so a group stands where its best session
 * would), rows in list order inside. Windows folders group whatever the drive letter's case.
 */
export function groupRows(rows: readonly SessionRow[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const r of rows) {
    const cwd = r.cwd ?? r.projectDir;
    const key = projectKey(cwd);
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { key, label: '', cwd, rows: [] }));
    g.rows.push(r);
  }
  const groups = [...byKey.values()];
  labelGroups(groups);
  return groups;
}

/** Each project as its folder's last names, made just long enough to tell it from the others. */
function labelGroups(groups: Group[]): void {
  const parts = groups.map((g) => g.cwd.split(/[\\/]/).filter(Boolean));
  const pending = new Set(groups.map((_, i) => i));
  for (let n = 1; pending.size > 0 && n <= 64; n++) {
    const count = new Map<string, number>();
    const tails = new Map<number, string>();
    for (const i of pending) {
      const p = parts[i] as string[];
      const tail = p.slice(-n).join('/').toLowerCase();
      tails.set(i, tail);
      count.set(tail, (count.get(tail) ?? 0) + 1);
    }
    // A tail no other pending project shares, or the whole path, is the label.
    for (const i of [...pending]) {
      const p = parts[i] as string[];
      if (count.get(tails.get(i) as string) === 1 || n >= p.length) {
        (groups[i] as Group).label = p.slice(-n).join('/') || (groups[i] as Group).cwd;
        pending.delete(i);
      }
    }
  }
}

/**
 * The lines to draw: headers and their rows (grouped), or the rows alone in list order (flat). A project
 * of one session has no header: its row names the project (a header per row doubles a list of loners).
 */
export function listItems(rows: readonly SessionRow[], groups: readonly Group[] | null, collapsed: Readonly<Record<string, boolean>>): ListItem[] {
  if (!groups) return rows.map((row) => ({ kind: 'row', id: `row-${row.path}`, row, group: null, project: null }));
  const out: ListItem[] = [];
  for (const group of groups) {
    const [only] = group.rows;
    if (group.rows.length === 1 && only) {
      out.push({ kind: 'row', id: `row-${only.path}`, row: only, group: null, project: group.label });
      continue;
    }
    const shut = collapsed[group.key] ?? false;
    out.push({ kind: 'group', id: `grp-${group.key}`, group, collapsed: shut });
    if (!shut) for (const row of group.rows) out.push({ kind: 'row', id: `row-${row.path}`, row, group, project: null });
  }
  return out;
}
