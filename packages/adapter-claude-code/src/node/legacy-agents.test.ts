import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSubagentFiles } from './discover';

const GENERATED = resolve(import.meta.dirname, '../../../../fixtures/corpus/generated');
const PARENT_ID = 'db5075e3-fee3-4d57-a736-cd3f2035f95a';
const PARENT = join(GENERATED, '04-subagent-compact-multiturn/claude-project', `${PARENT_ID}.jsonl`);
const SUBAGENT = join(GENERATED, '04-subagent-compact-multiturn/claude-project', PARENT_ID, 'subagents/agent-abce44d6f33b694ad.jsonl');
const OTHER = join(GENERATED, '01-superseded-reads/transcript.jsonl');

/** A project folder in the legacy layout: the session, and real subagent records beside it. */
function project(): { dir: string; session: string } {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-legacy-'));
  const session = join(dir, `${PARENT_ID}.jsonl`);
  copyFileSync(PARENT, session);
  copyFileSync(SUBAGENT, join(dir, 'agent-legacy1.jsonl'));
  copyFileSync(OTHER, join(dir, 'agent-other.jsonl'));
  return { dir, session };
}

/** Makes the folder look unchanged for a while, so its listing is kept. */
function settle(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(dir, past, past);
}

const agentIds = (session: string): string[] => listSubagentFiles(session, PARENT_ID).map((f) => f.agentId);

describe('legacy subagent files beside the sessions', () => {
  it('finds the ones that name the session, again and again while the folder stays the same', () => {
    const { dir, session } = project();
    settle(dir);
    expect(agentIds(session)).toEqual(['legacy1']);
    expect(agentIds(session)).toEqual(['legacy1']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sees a file added or removed since the folder was listed', () => {
    const { dir, session } = project();
    settle(dir);
    expect(agentIds(session)).toEqual(['legacy1']);
    copyFileSync(SUBAGENT, join(dir, 'agent-legacy2.jsonl'));
    expect(agentIds(session)).toEqual(['legacy1', 'legacy2']);
    settle(dir);
    expect(agentIds(session)).toEqual(['legacy1', 'legacy2']);
    rmSync(join(dir, 'agent-legacy1.jsonl'));
    expect(agentIds(session)).toEqual(['legacy2']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads again the head of a file that named no session yet (a file still being written)', () => {
    const { dir, session } = project();
    const late = join(dir, 'agent-late.jsonl');
    writeFileSync(late, '');
    settle(dir);
    expect(agentIds(session)).toEqual(['legacy1']);
    // Writing into the file changes the file, not the folder: the folder's listing is still the one kept.
    writeFileSync(late, readFileSync(SUBAGENT));
    expect(agentIds(session)).toEqual(['late', 'legacy1']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('has none in a folder that is gone', () => {
    const { dir, session } = project();
    settle(dir);
    expect(agentIds(session)).toEqual(['legacy1']);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    expect(agentIds(session)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});
