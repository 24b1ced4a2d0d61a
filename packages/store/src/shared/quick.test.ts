import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { quickLook } from './quick';
import { runSummarize } from '../index/jobs';
import { CORPUS, SCENARIOS } from '../test-corpus';

function corpusTranscripts(): string[] {
  const out: string[] = [];
  for (const s of SCENARIOS) {
    const dir = join(CORPUS, 'generated', s, 'claude-project');
    for (const n of readdirSync(dir)) if (n.endsWith('.jsonl')) out.push(join(dir, n));
  }
  const kimuson = join(CORPUS, 'public', 'd-kimuson__claude-code-viewer');
  for (const n of readdirSync(kimuson)) if (n.endsWith('.jsonl')) out.push(join(kimuson, n));
  const drm = join(CORPUS, 'public', 'DRMacIver__claude-reliability');
  for (const d of readdirSync(drm, { withFileTypes: true })) if (d.isDirectory()) out.push(join(drm, d.name, 'transcript.jsonl'));
  return out;
}

it('the list figures read from the first and last records agree with a full pass, on every corpus transcript', () => {
  const files = corpusTranscripts();
  expect(files.length).toBeGreaterThan(12);
  for (const path of files) {
    const quick = quickLook(path, false, claudeCodeFormat).state;
    const full = runSummarize({ type: 'summarize', agent: claudeCodeFormat.id, path, subagentFile: false, fromOffset: 0, fromLine: 0, state: null }, claudeCodeFormat);
    if (!full.ok) throw new Error(full.message);
    // firstPrompt too: the head window (up to 64 KB) may stop before a later first prompt, but on every
    // transcript of the corpus the first prompt lies inside it.
    const pick = (s: typeof quick) => ({ path, sessionId: s.sessionId, cwd: s.cwd, lastTs: s.lastTs, contextTokens: s.contextTokens, lastModel: s.lastModel, title: s.title, firstPrompt: s.firstPrompt });
    expect(pick(quick)).toEqual(pick(full.state));
    expect(quick.firstPrompt, path).not.toBeNull();
  }
});
