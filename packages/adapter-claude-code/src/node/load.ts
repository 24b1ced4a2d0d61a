import type { LoadOptions, LoadedSession, Session, SubagentRef } from '@glassbox/core';
import type { SubagentHint } from '../parse/state';
import { listSubagentFiles, type SubagentFile } from './discover';
import { readSessionFile } from './read-file';

/** Parses a session and its subagent files, linking each subagent to the tool call that started it. */
export function loadSessionWithSubagents(path: string, options: LoadOptions = {}): LoadedSession {
  const previews = options.figuresOnly !== true;
  const { session, parser } = readSessionFile(path, { progress: options.progress, onRecord: options.onRecord, previews });
  // A subagent's own file has no subagents of its own here; its siblings belong to the parent.
  if (options.subagents === false || session.agentId !== undefined) return { session, subagents: [] };
  const files = listSubagentFiles(path, session.id).filter((f) => f.path !== path);
  return linkSubagents(session, parser.subagentLinks(), files.map((file) => ({ file, sub: readSessionFile(file.path, { previews }).session })));
}

/**
 * Links subagent sessions to their parent: a reference on the session for each (the tool call that
 * started it, from the file's meta or the parent's call), and the subagent's warnings and errors
 * among the session's problems. Shared by a whole read and a followed session (follow.ts).
 */
export function linkSubagents(session: Session, hints: ReadonlyMap<string, SubagentHint>, read: readonly { file: SubagentFile; sub: Session }[]): LoadedSession {
  const subagents: Session[] = [];
  for (const { file, sub } of read) {
    const ref: SubagentRef = { agentId: file.agentId, path: file.path };
    const hint = hints.get(file.agentId);
    const toolUseId = file.meta?.toolUseId ?? hint?.toolUseId;
    if (toolUseId) ref.toolUseId = toolUseId;
    const agentType = file.meta?.agentType ?? hint?.agentType;
    if (agentType) ref.agentType = agentType;
    const description = file.meta?.description ?? hint?.description;
    if (description) ref.description = description;
    session.subagents.push(ref);
    for (const p of sub.problems) if (p.severity !== 'info') session.problems.push(p);
    subagents.push(sub);
  }
  return { session, subagents };
}
