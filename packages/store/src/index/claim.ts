import { readHead } from '@glassbox/file-io';
import type { AgentRegistry, DiscoveredFile } from '@glassbox/core';

/** How much of a file's head is decoded first, to recognise it by its first lines. */
const FIRST_BYTES = 8 * 1024;

type FoundFile = Omit<DiscoveredFile, 'root'> & { root: string | null };

/** Whose transcript a file is, checked against the agent that found it (or was chosen for it). */
export type Claim =
  | { status: 'own' }
  /** Another agent's transcript in this agent's roots: indexed as the other agent's, with a notice. */
  | { status: 'moved'; file: FoundFile; notice: string }
  /** No adapter reads it: listed as unreadable with the reason, never summarised as something it is not. */
  | { status: 'foreign'; note: string };

/**
 * Each agent's discovery finds files by name and place only. A file whose first lines its agent
 * recognises as another format (a Codex rollout among Claude Code's projects, a Claude Code
 * transcript named like a rollout in CODEX_HOME) is given to the agent that recognises it, or, when
 * none does, reported with its file and the line that decided.
 */
export function claimFile(agents: AgentRegistry, file: FoundFile): Claim {
  const own = agents.byId(file.agent).format;
  const read = readHead(file.path);
  // A 'yes' stands for any longer head (AgentFormat.recognise): most files are told by their first
  // record, without decoding 64 KB of text the list stage does not otherwise look at.
  if (own.recognise(read.first(FIRST_BYTES)).verdict === 'yes') return { status: 'own' };
  const head = read.lines();
  const verdict = own.recognise(head);
  if (verdict.verdict !== 'no') return { status: 'own' };
  const line = firstRecordLine(head);
  const where = `${file.path}:${line}`;
  const other = agents.recognise(head);
  if (other.agent && other.agent.format.id !== own.id) {
    const label = other.agent.format.label;
    return {
      status: 'moved',
      file: { ...other.agent.locator.describe(file.path), root: file.root },
      notice: `${where}: a ${label} session among ${own.label}'s sessions; indexed as ${label}`,
    };
  }
  const what = verdict.what ?? other.what[0];
  return { status: 'foreign', note: `${where}: not a ${own.label} transcript${what ? ` (${what})` : ''}; not read` };
}

/** 1-based number of the first line that is not blank (the one recognition decided on). */
function firstRecordLine(head: readonly string[]): number {
  const i = head.findIndex((l) => l.trim() !== '');
  return i < 0 ? 1 : i + 1;
}
