import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeContextLimits, claudeSetupPart } from './context-limits';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/corpus/generated/05-autocompact/claude-project/e76ff076-5848-42e0-88dd-945eec3ee2bc.jsonl');

describe("Claude Code's window and auto-compaction (2.1.197)", () => {
  it('the model a real transcript names: claude-opus-4-8, 1M natively, compacted only when a request is refused', () => {
    const model = /"model":"(claude-[^"]+)"/.exec(readFileSync(FIXTURE, 'utf8'))?.[1] ?? null;
    expect(model).toBe('claude-opus-4-8');
    const l = claudeContextLimits(model, 97_000);
    expect(l?.window).toBe(1_000_000);
    expect(l?.autoCompact).toMatchObject({ proactive: false, at: 977_000 });
  });

  it('200k families: 167k on the 4-6 models (their own auto-compact window), 1M once a request went past 200k', () => {
    expect(claudeContextLimits('claude-sonnet-4-6', 120_000)).toMatchObject({ window: 200_000, autoCompact: { at: 167_000, proactive: true } });
    expect(claudeContextLimits('claude-sonnet-4-5-20250929', 120_000)).toMatchObject({ window: 200_000, autoCompact: { at: 177_000, proactive: false } });
    const beta = claudeContextLimits('claude-sonnet-4-5-20250929', 420_000);
    expect(beta?.window).toBe(1_000_000);
    expect(beta?.windowBasis).toContain('1M-context');
    expect(claudeContextLimits('claude-sonnet-5', 10)).toMatchObject({ window: 1_000_000, autoCompact: { at: 934_000, proactive: true } });
    expect(claudeContextLimits('gpt-5', 10)).toBeNull();
    // The default model of 2.1.332, from its catalogue; a model no catalogue names is unknown, not guessed.
    expect(claudeContextLimits('claude-opus-5-5', 10)?.window).toBe(1_000_000);
    expect(claudeContextLimits('claude-opus-9-9', 10)).toBeNull();
    expect(claudeContextLimits(null, 10)).toBeNull();
  });

  it('memory, skill and tool listings are set-up; prompts and file attachments are conversation', () => {
    expect(claudeSetupPart({ kind: 'attachment', source: { type: 'attachment', label: 'skill_listing' } })).toBe('skills');
    expect(claudeSetupPart({ kind: 'attachment', source: { type: 'attachment', label: 'memory src/CLAUDE.md' } })).toBe('memory files');
    expect(claudeSetupPart({ kind: 'attachment', source: { type: 'attachment', label: 'deferred tools' } })).toBe('MCP and deferred tools');
    expect(claudeSetupPart({ kind: 'attachment', source: { type: 'attachment', label: 'file src/a.ts' } })).toBeNull();
    expect(claudeSetupPart({ kind: 'prompt', source: { type: 'prompt', label: 'prompt' } })).toBeNull();
  });
});
