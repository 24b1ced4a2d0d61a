// Test helpers: real transcripts from fixtures/, analysed with the real Node ports.
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import { nodeAnalysisPorts } from '@glassbox/store/repo-port';
import type { ClassifiedSnapshot, Segment } from '@glassbox/core';
import { analyzeSession, type AnalyzeOptions } from '@glassbox/analysis';
import { CORPUS } from '../paths';

export const FIXTURES = CORPUS;

/** The session file of a generated scenario, inside its projects folder (so subagents are found). */
export function generatedSession(scenario: string): string {
  const dir = join(FIXTURES, 'generated', scenario, 'claude-project');
  const file = readdirSync(dir).find((f) => f.endsWith('.jsonl'));
  if (!file) throw new Error(`no session in ${dir}`);
  return join(dir, file);
}

export function projectAfter(scenario: string): string {
  return join(FIXTURES, 'generated', scenario, 'project-after');
}

export function analyzeFile(path: string, options: AnalyzeOptions = {}): ClassifiedSnapshot {
  const { session, subagents } = loadSessionWithSubagents(path);
  return analyzeSession(session, nodeAnalysisPorts(), { subagents, ...options });
}

/** A private copy of a folder, to change files on disk without touching the fixtures. */
export function copyToTemp(dir: string): string {
  const to = mkdtempSync(join(tmpdir(), 'glassbox-test-'));
  cpSync(dir, to, { recursive: true });
  return to;
}

/** A copy of a real transcript with one line changed by `edit` (1-based line numbers). */
export function variantOf(path: string, edit: (lines: string[]) => string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-variant-'));
  const lines = readFileSync(path, 'utf8').split('\n');
  const out = join(dir, 'variant.jsonl');
  writeFileSync(out, edit(lines).join('\n'));
  return out;
}

export const byLine = (snap: ClassifiedSnapshot, line: number): Segment[] => snap.segments.filter((s) => s.line === line);
export const results = (snap: ClassifiedSnapshot): Segment[] => snap.segments.filter((s) => s.kind === 'tool-result');
/** The class of the tool result on a line. */
export const classOf = (snap: ClassifiedSnapshot, line: number): string | undefined => byLine(snap, line).find((s) => s.kind === 'tool-result')?.class;

/** The raw text a Read captured, from the record's structured mirror. */
export function capturedAt(path: string, line: number): string {
  const record = JSON.parse(readFileSync(path, 'utf8').split('\n')[line - 1] ?? '{}') as { toolUseResult: { file: { content: string } } };
  return record.toolUseResult.file.content;
}
