/**
 * The files an apply_patch input touches. The format (docs/codex/format.md, "apply_patch"):
 * `*** Begin Patch` … `*** End Patch`, with `*** Add File: P` (every following line `+text`),
 * `*** Update File: P` (optionally `*** Move to: Q`, then hunks), `*** Delete File: P`.
 */
export interface PatchFile {
  type: 'add' | 'update' | 'delete';
  path: string;
  movedTo?: string;
  /** For an added file: its content as the patch writes it. */
  content?: string;
}

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

export function parsePatch(input: string): PatchFile[] | null {
  const lines = input.replace(/\r\n/g, '\n').split('\n');
  const begin = lines.findIndex((l) => l.trim() === '*** Begin Patch');
  if (begin < 0) return null;
  const files: PatchFile[] = [];
  let adding: string[] | null = null;
  const close = (): void => {
    const last = files[files.length - 1];
    if (adding && last) last.content = adding.length ? adding.join('\n') + '\n' : '';
    adding = null;
  };
  for (let i = begin + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '*** End Patch') {
      close();
      return files;
    }
    const h = HEADER.exec(line);
    if (h) {
      close();
      const type = (h[1] as string).toLowerCase() as PatchFile['type'];
      files.push({ type, path: (h[2] as string).trim() });
      if (type === 'add') adding = [];
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && files.length > 0) {
      (files[files.length - 1] as PatchFile).movedTo = (move[1] as string).trim();
      continue;
    }
    if (adding) {
      if (!line.startsWith('+')) return null;
      adding.push(line.slice(1));
    }
  }
  return null;
}
