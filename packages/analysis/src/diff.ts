import { structuredPatch } from 'diff';

const MAX_DIFF_LINES = 400;

/** A unified diff of what a read captured against the same lines now, numbered as in the file. */
export function rangeDiff(path: string, captured: string, current: string, startLine: number): string {
  const patch = structuredPatch(`${path} (as read)`, `${path} (now)`, withNewline(captured), withNewline(current), '', '', {
    context: 3,
  });
  const out: string[] = [`--- ${patch.oldFileName}`, `+++ ${patch.newFileName}`];
  for (const h of patch.hunks) {
    const offset = startLine - 1;
    out.push(`@@ -${h.oldStart + offset},${h.oldLines} +${h.newStart + offset},${h.newLines} @@`);
    for (const l of h.lines) {
      if (out.length >= MAX_DIFF_LINES) {
        out.push(`… (diff cut at ${MAX_DIFF_LINES} lines)`);
        return out.join('\n');
      }
      out.push(l);
    }
  }
  return out.join('\n');
}

function withNewline(s: string): string {
  return s.endsWith('\n') ? s : s + '\n';
}
