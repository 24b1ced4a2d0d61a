import { fstatSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Whether the file open as `fd` is the one at `rel` under the folder `baseReal` (a real path, no link
 * in it), with no link anywhere between: the folder of `path` resolves to `baseReal/dirname(rel)`, and
 * the entry there is the very file opened (same device and inode). Opening with O_NOFOLLOW guards only
 * the last part of a path; a folder in the middle (`<session>/subagents`) flipped to a link and back
 * while a fork or keep runs would otherwise carry a file from anywhere into it. Checked after the open,
 * so a flip at any moment is caught: through the link the inode differs, with the link still there
 * the folder resolves elsewhere.
 */
export function openedInPlace(fd: number, path: string, baseReal: string, rel: string): boolean {
  try {
    const opened = fstatSync(fd);
    const expected = rel.includes('/') ? join(baseReal, dirname(rel)) : baseReal;
    if (realpathSync(dirname(path)) !== expected) return false;
    const there = lstatSync(path);
    return there.dev === opened.dev && there.ino === opened.ino;
  } catch {
    return false;
  }
}

/** The real path of a folder, or null when it is not there. */
export function realFolder(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
