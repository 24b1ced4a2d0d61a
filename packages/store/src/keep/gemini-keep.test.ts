// Keeping a Gemini CLI session past the client's clean-up: what the client deletes with it (its saved
// outputs, its subagents' chats) is kept with it, and a restore puts every file back where it was,
// the parts placed by the kept session id (the chat's name holds only its first 8 characters).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAgents } from '@glassbox/agents';
import { REPO_ROOT } from '@glassbox/test-support/store/fork';
import { keepSession } from './keep';
import { KeptArchive } from './kept-archive';
import { findKept } from './find';
import { restoreSession } from './restore';

const agents = defaultAgents();
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p, `${rel}${n}/`);
      else out[`${rel}${n}`] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return out;
}

function home(scenario: string, version: string) {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-gemini-keep-'));
  made.push(root);
  const tmp = join(root, '.gemini', 'tmp');
  cpSync(join(REPO_ROOT, 'fixtures/corpus/gemini', scenario, `v${version}`, 'gemini-tmp'), tmp, { recursive: true });
  return { tmp, project: join(tmp, 'inventory'), archiveDir: join(root, 'archive') };
}

describe('keeping a Gemini CLI session', () => {
  it.each([
    ['04-output-masking', '0.61', '37c10cb4-b4a0-4718-bddf-85c570877dee', 'tool-outputs'],
    ['02-subagent-error', '0.61', '36f657a0-655a-428a-9f1c-09179e3746ca', 'chats/36f657a0-655a-428a-9f1c-09179e3746ca'],
  ])('%s v%s: kept with its side files, deleted as the client deletes it, restored byte for byte', (scenario, version, id, side) => {
    const h = home(scenario, version);
    const chat = join(h.project, 'chats', (readdirSync(join(h.project, 'chats')).filter((n) => n.includes(id.slice(0, 8)) && n.endsWith('.jsonl')).sort((a, b) => statSync(join(h.project, 'chats', b)).size - statSync(join(h.project, 'chats', a)).size)[0]) as string);
    const before = tree(h.project);
    expect(Object.keys(before).some((k) => k.startsWith(`${side}/`))).toBe(true);
    keepSession(chat, { agents, archiveDir: h.archiveDir });
    // The client's clean-up: the chat, its subagent chats and its saved outputs.
    rmSync(chat);
    rmSync(join(h.project, 'chats', id), { recursive: true, force: true });
    rmSync(join(h.project, 'tool-outputs', `session-${id}`), { recursive: true, force: true });
    const r = restoreSession(findKept(new KeptArchive(h.archiveDir), id), { agents, archiveDir: h.archiveDir, roots: [h.tmp] });
    expect(r.path).toBe(chat);
    const after = tree(h.project);
    for (const [rel, sha] of Object.entries(before)) expect(after[rel], rel).toBe(sha);
  });
});
