import { lstatSync } from 'node:fs';

/** Whether anything is at the path, a symbolic link itself included (never followed). */
export function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
