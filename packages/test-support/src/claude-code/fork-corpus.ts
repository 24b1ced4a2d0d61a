// Test helpers: transcripts of the corpus copied into the repository (fixtures/corpus), as raw lines.
// Only tests import this file, so it may read the disk.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LineSplice, ValidateOptions, ValidationReport } from '@glassbox/core';
import { type ForkAction, createForkBuilder, createForkValidator } from '@glassbox/adapter-claude-code';
import { REPO_ROOT } from '../paths';

export const GENERATED = [
  '01-superseded-reads',
  '02-gone-drift-errors',
  '03-large-outputs',
  '04-subagent-compact-multiturn',
  '05-autocompact',
  '06-fork-session',
  '07-interactive-tui',
  // Written by Claude Code 2.1.332 (request-log copies, session_id, rendered attachments).
  '19-newest-client-window',
  '20-newest-client-models',
  '21-newest-client-agents-tools',
  '22-newest-client-tui',
  '23-newest-client-autocompact',
] as const;

export function generatedPath(name: string): string {
  return join(REPO_ROOT, 'fixtures/corpus/generated', name, 'transcript.jsonl');
}

/** Every Claude Code transcript of the corpus copy: the generated sessions and the public ones (not the Codex rollouts). */
export function claudeTranscripts(): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = GENERATED.map((name) => ({ name, path: generatedPath(name) }));
  const pub = join(REPO_ROOT, 'fixtures/corpus/public');
  for (const source of ['d-kimuson__claude-code-viewer', 'DRMacIver__claude-reliability']) {
    const walk = (dir: string, rel: string): void => {
      for (const n of readdirSync(dir).sort()) {
        const path = join(dir, n);
        if (statSync(path).isDirectory()) walk(path, `${rel}/${n}`);
        else if (n.endsWith('.jsonl')) out.push({ name: `${rel}/${n}`, path });
      }
    };
    walk(join(pub, source), source);
  }
  return out;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function readLines(path: string): string[] {
  return splitLines(readFileSync(path, 'utf8'));
}

export const NEW_ID = '00000000-1111-4222-8333-444444444444';

/**
 * Every payload of a transcript a fork could take: each successful tool result, and each
 * Write/Edit/MultiEdit/NotebookEdit input — built by hand from the records, as a plan would name them.
 */
export function candidateActions(lines: readonly string[]): ForkAction[] {
  const out: ForkAction[] = [];
  const names = new Map<string, string>();
  lines.forEach((text, i) => {
    const r = JSON.parse(text) as { uuid?: string; type?: string; message?: { content?: unknown } };
    const content = r.message?.content;
    if (!r.uuid || !Array.isArray(content)) return;
    content.forEach((b: { type?: string; id?: string; name?: string; tool_use_id?: string; is_error?: boolean }, j) => {
      if (b.type === 'tool_use' && b.id && b.name) {
        names.set(b.id, b.name);
        if (['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(b.name)) {
          out.push({ uuid: r.uuid as string, line: i + 1, blockIndex: j, target: 'tool-input', toolUseId: b.id, tombstone: `[glassbox: removed the ${b.name} input]` });
        }
      }
      if (b.type === 'tool_result' && b.is_error !== true && b.tool_use_id) {
        const tool = names.get(b.tool_use_id) ?? 'tool';
        out.push({ uuid: r.uuid as string, line: i + 1, blockIndex: j, target: 'tool-result', toolUseId: b.tool_use_id, tombstone: `[glassbox: removed the ${tool} output]` });
      }
    });
  });
  return out;
}

/** A builder's line as bytes: its text encoded, or its splice applied to the original's bytes. */
function spliced(original: Buffer, line: string | LineSplice): Buffer {
  if (typeof line === 'string') return Buffer.from(line, 'utf8');
  return Buffer.concat([original.subarray(0, line.start), line.insert, original.subarray(line.end)]);
}

/** A fork built as the file writer builds it: pass 2 through transformBytes, the lines as bytes. */
export function buildForkAsBytes(lines: readonly string[], actions: readonly ForkAction[], newSessionId: string): Buffer[] {
  const builder = createForkBuilder(actions, newSessionId);
  lines.forEach((text, i) => builder.index(text, i + 1));
  builder.prepare();
  return lines.map((text, i) => {
    const bytes = Buffer.from(text, 'utf8');
    return spliced(bytes, builder.transformBytes(bytes, text, i + 1));
  });
}

/** validateFork fed as the file writer feeds it: each pair as bytes (pairBytes), a side that ends early as text. */
export function validateForkAsBytes(original: readonly string[], fork: readonly string[], options: ValidateOptions = {}): ValidationReport {
  const v = createForkValidator(options);
  const n = Math.max(original.length, fork.length);
  for (let i = 0; i < n; i++) {
    const o = original[i];
    const f = fork[i];
    if (o !== undefined && f !== undefined) v.pairBytes({ text: o, bytes: Buffer.from(o, 'utf8') }, Buffer.from(f, 'utf8'), i + 1);
    else v.pair(o, f, i + 1);
  }
  return v.finish();
}
