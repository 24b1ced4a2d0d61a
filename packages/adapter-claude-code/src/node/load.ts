import type { LoadOptions, LoadedSession, Session, SubagentRef } from '@glassbox/core';
import { listSubagentFiles } from './discover';
import { readSessionFile } from './read-file';

/** Parses a session and its subagent files, linking each subagent to the tool call that started it. */
export function loadSessionWithSubagents(path: string, options: LoadOptions = {}): LoadedSession {
  const { session, parser } = readSessionFile(path, options.progress);
  const subagents: Session[] = [];
  // A subagent's own file has no subagents of its own here; its siblings belong to the parent.
  if (options.subagents === false || session.agentId !== undefined) return { session, subagents };
  const hints = parser.subagentLinks();
  for (const file of listSubagentFiles(path, session.id)) {
    if (file.path === path) continue;
    const { session: sub } = readSessionFile(file.path);
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
