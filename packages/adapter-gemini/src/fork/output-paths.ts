/**
 * A chat names the full text of an output the client cut or masked by its path,
 * `<project folder>/tool-outputs/session-<session id>/<file>` (docs/gemini/format.md). A fork carries
 * copies of those files into its own `tool-outputs/session-<fork id>/` — the folder the client deletes
 * with the fork, not with the original — and its text names the copies: the session id in those
 * paths is renamed like the session's own. These work on a record's JSON text as written (a path
 * with `/`, or Windows' `\` escaped as `\\`).
 */
const SEP = '(?:/|\\\\\\\\)';

function pathPattern(sessionId: string): RegExp {
  const id = sessionId.replace(/[^0-9A-Za-z-]/g, '');
  return new RegExp(`(tool-outputs${SEP}session-)${id}(?=${SEP})`, 'g');
}

/** `text` with every tool-output path of session `oldId` naming session `newId`'s folder instead. */
export function renameOutputPaths(text: string, oldId: string, newId: string): string {
  if (oldId === '' || !text.includes('tool-outputs') || !text.includes(oldId)) return text;
  return text.replace(pathPattern(oldId), `$1${newId}`);
}
