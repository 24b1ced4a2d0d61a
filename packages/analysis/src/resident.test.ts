import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '@glassbox/adapter-claude-code/node';
import { reconstructWindow } from './resident';
import { join } from 'node:path';
import { FIXTURES, analyzeFile, generatedSession, variantOf } from '@glassbox/test-support/analysis/fixtures';

describe('the resident window', () => {
  it('starts at the last compaction: summary first, then the preserved message, nothing from before', () => {
    const path = generatedSession('04-subagent-compact-multiturn');
    const { session } = readSessionFile(path);
    const w = reconstructWindow(session);
    expect(w.boundary?.kind).toBe('compact-boundary');
    expect(w.compactions).toBe(1);
    const kinds = w.nodes.map((n) => n.kind);
    expect(kinds.slice(0, 3)).toEqual(['compact-boundary', 'compact-summary', 'assistant']);
    const boundaryLine = w.boundary?.line ?? 0;
    // The preserved assistant message is older than the boundary; nothing else is.
    const older = w.nodes.filter((n) => n.line < boundaryLine);
    expect(older).toHaveLength(1);
    const raw = JSON.parse(readFileSync(path, 'utf8').split('\n')[boundaryLine - 1] ?? '{}');
    expect(older[0]?.uuid).toBe(raw.compactMetadata.preservedMessages.uuids[0]);
  });

  it('re-collects parallel tool calls the parent chain skips', () => {
    const { session } = readSessionFile(generatedSession('01-superseded-reads'));
    const w = reconstructWindow(session);
    const resident = new Set(w.nodes.map((n) => n.uuid));
    // Every tool call whose use is resident has its result resident too.
    const residentCalls = [...session.toolCalls.values()].filter((call) => resident.has(call.useUuid));
    expect(residentCalls).toHaveLength(21);
    for (const call of residentCalls) expect(resident.has(call.resultUuid ?? ''), call.name).toBe(true);
    // Three parallel reads in one response: all three results are in the window.
    const parallel = [...session.toolCalls.values()].filter((c) => c.useLine >= 9 && c.useLine <= 11);
    expect(parallel).toHaveLength(3);
    for (const c of parallel) expect(resident.has(c.resultUuid ?? '')).toBe(true);
  });

  it('counts usage once per API response and reports the last one', () => {
    const snap = analyzeFile(generatedSession('01-superseded-reads'));
    const last = snap.turns[snap.turns.length - 1];
    expect(snap.context.reportedTokens).toBe(last?.contextTokens);
    const ids = snap.turns.map((t) => t.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(snap.context.unattributedTokens).toBeGreaterThan(0);
    expect(snap.context.estimatedTokens).toBe(snap.segments.reduce((n, s) => n + s.tokens, 0));
  });

  it('leaves records of an abandoned branch out of the window', () => {
    const path = generatedSession('01-superseded-reads');
    const all = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const records = all.map((l) => JSON.parse(l));
    const lastPromptAt = records.map((r) => r.type).lastIndexOf('last-prompt');
    // Point the last leaf back at the end of turn one: turn two becomes an abandoned branch.
    const firstLeaf = records.find((r) => r.type === 'last-prompt').leafUuid as string;
    const variant = variantOf(path, (lines) => {
      lines[lastPromptAt] = JSON.stringify({ ...records[lastPromptAt], leafUuid: firstLeaf });
      return lines;
    });
    const full = analyzeFile(path);
    const cut = analyzeFile(variant);
    expect(cut.leafUuid).toBe(firstLeaf);
    expect(cut.segments.length).toBeLessThan(full.segments.length);
    expect(cut.segments.filter((s) => s.kind === 'prompt')).toHaveLength(1);
  });

  it('shows inline sidechains of 1.x transcripts as separate windows', () => {
    const snap = analyzeFile(join(FIXTURES, 'public/d-kimuson__claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'));
    expect(snap.subagents.length).toBeGreaterThan(1);
    for (const w of snap.subagents) {
      expect(w.agentType).toBe('inline sidechain');
      // Each is linked to the Task call whose prompt started it.
      expect(w.toolUseId).toMatch(/^toolu_/);
    }
    expect(new Set(snap.subagents.map((w) => w.toolUseId)).size).toBe(snap.subagents.length);
    const resident = new Set(snap.segments.map((s) => s.uuid));
    const { session } = readSessionFile(snap.session.path);
    const sidechain = [...session.nodes.values()].filter((n) => n.isSidechain);
    expect(sidechain).toHaveLength(405);
    expect(sidechain.filter((n) => resident.has(n.uuid))).toEqual([]);
  });

  it('shows subagents as linked windows, not as part of the parent window', () => {
    const snap = analyzeFile(generatedSession('04-subagent-compact-multiturn'));
    expect(snap.subagents).toHaveLength(1);
    expect(snap.subagents[0]?.toolUseId).toMatch(/^toolu_/);
    expect(snap.subagents[0]?.segments).toBeGreaterThan(0);
    const parentUuids = new Set(snap.segments.map((s) => s.uuid));
    const { session: sub } = readSessionFile(snap.subagents[0]?.path ?? '');
    for (const u of sub.order) expect(parentUuids.has(u)).toBe(false);
  });
});
