import { describe, expect, it } from 'vitest';
import { buildFork } from './apply';
import { validateFork } from './validate';
import { GENERATED, NEW_ID, buildForkAsBytes, candidateActions, claudeTranscripts, generatedPath, readLines } from '@glassbox/test-support/claude-code/fork-corpus';
import { createForkBuilder } from './apply';
import type { LineSplice } from '@glassbox/core';

describe('pass 2 from bytes (the file writer) gives the bytes of pass 2 from text', () => {
  for (const { name, path } of claudeTranscripts()) {
    it(name, () => {
      const lines = readLines(path);
      const actions = candidateActions(lines);
      const asText = buildFork(lines, actions, NEW_ID).lines;
      const asBytes = buildForkAsBytes(lines, actions, NEW_ID);
      expect(asBytes.map((b) => b.toString('utf8'))).toEqual(asText);
    });
  }

  it('a line whose session id cannot be spliced as bytes (two keys, an escape) takes the text path, with the same result', () => {
    const lines = readLines(generatedPath('01-superseded-reads'));
    const i = lines.findIndex((l) => l.includes('"sessionId":"') && l.includes('"type":"user"'));
    const r = JSON.parse(lines[i] as string) as Record<string, unknown>;
    const nested = JSON.stringify({ ...r, toolUseResult: { sessionId: r['sessionId'] } });
    const escaped = (lines[i] as string).replace(`"sessionId":"${String(r['sessionId'])}"`, `"sessionId":"${String(r['sessionId']).replace('-', '\\u002d')}"`);
    const viaBytes = (text: string): string | LineSplice => {
      const builder = createForkBuilder([], NEW_ID);
      builder.index(text, 1);
      builder.prepare();
      return builder.transformBytes(Buffer.from(text, 'utf8'), text, 1);
    };
    const viaText = (text: string): string => buildFork([text], [], NEW_ID).lines[0] as string;
    for (const text of [nested, escaped]) {
      const out = viaBytes(text);
      expect(typeof out).toBe('string');
      expect(out).toBe(viaText(text));
    }
    // The record's own id renamed, the nested one kept; the escaped id is left for the validator to refuse.
    const back = JSON.parse(viaText(nested)) as { sessionId: string; toolUseResult: { sessionId: string } };
    expect([back.sessionId, back.toolUseResult.sessionId]).toEqual([NEW_ID, r['sessionId']]);
    expect(viaText(escaped)).toBe(escaped);
  });
});

describe('buildFork on the generated corpus', () => {
  for (const name of GENERATED) {
    it(`${name}: tombstones every payload it can and validates`, () => {
      const lines = readLines(generatedPath(name));
      const actions = candidateActions(lines);
      const fork = buildFork(lines, actions, NEW_ID);
      expect(fork.applied.length).toBeGreaterThan(0);
      expect(fork.lines).toHaveLength(lines.length);
      // Refusals are only payloads already smaller than their tombstone, or a second copy of a record.
      for (const r of fork.refused) expect(['not_smaller', 'duplicate_action', 'loads_tools']).toContain(r.code);
      const report = validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.fork.estimatedTokens).toBeLessThan(report.original.estimatedTokens);
      expect(report.fork.live).toBe(report.original.live);
      expect(report.touchedLines).toEqual(fork.touchedLines);

      const touched = new Set(fork.touchedLines);
      lines.forEach((line, i) => {
        const out = fork.lines[i] as string;
        const sid = (JSON.parse(line) as { sessionId?: string }).sessionId;
        if (touched.has(i + 1)) {
          expect(out).not.toBe(line);
          expect(out.length).toBeLessThan(line.length);
        } else if (sid) {
          // Untouched lines: the same bytes, but for the session id (and its second copy in 2.1.33x TUI records).
          expect(out).toBe(line.replace(`"sessionId":"${sid}"`, `"sessionId":"${NEW_ID}"`).replace(`"session_id":"${sid}"`, `"session_id":"${NEW_ID}"`));
        } else {
          expect(out).toBe(line);
        }
        // a line that had a session id has the new one; a line that had none has none
        expect((JSON.parse(out) as { sessionId?: string }).sessionId).toBe(sid ? NEW_ID : undefined);
        expect(out).not.toContain(`"session_id":"${sid ?? 'none'}"`);
      });
    });
  }

  it('replaces a Read result and its mirror, and keeps the rest of the record', () => {
    const lines = readLines(generatedPath('01-superseded-reads'));
    const read = candidateActions(lines).find((a) => a.tombstone.includes('Read output'));
    expect(read).toBeDefined();
    const fork = buildFork(lines, [read!], NEW_ID);
    expect(fork.applied).toHaveLength(1);
    const before = JSON.parse(lines[read!.line! - 1] as string);
    const after = JSON.parse(fork.lines[read!.line! - 1] as string);
    expect(after.message.content[read!.blockIndex].content).toBe(read!.tombstone);
    expect(after.toolUseResult.file.content).toBe(read!.tombstone);
    expect(after.toolUseResult.file.filePath).toBe(before.toolUseResult.file.filePath);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    const applied = fork.applied[0]!;
    expect(applied.toolName).toBe('Read');
    expect(applied.removed.map((r) => r.path)).toEqual([`message.content[${read!.blockIndex}].content`, 'toolUseResult.file.content']);
    expect(applied.removed[0]!.text).toBe(before.message.content[read!.blockIndex].content);
  });

  it('replaces Bash stdout in the mirror and a Write input', () => {
    const lines = readLines(generatedPath('03-large-outputs'));
    const actions = candidateActions(lines);
    const fork = buildFork(lines, actions, NEW_ID);
    const bash = fork.applied.find((a) => a.toolName === 'Bash');
    expect(bash?.removed.map((r) => r.path)).toContain('toolUseResult.stdout');
    const write = fork.applied.find((a) => a.action.target === 'tool-input' && a.toolName === 'Write');
    expect(write).toBeDefined();
    const rec = JSON.parse(fork.lines[write!.line - 1] as string);
    expect(rec.message.content[write!.action.blockIndex].input.content).toBe(write!.action.tombstone);
    expect(rec.message.content[write!.action.blockIndex].input.file_path).toMatch(/\//);
  });

  it('with no actions, changes only the session id', () => {
    const lines = readLines(generatedPath('04-subagent-compact-multiturn'));
    const fork = buildFork(lines, [], NEW_ID);
    expect(fork.touchedLines).toEqual([]);
    expect(fork.originalSessionIds).toHaveLength(1);
    const report = validateFork(lines, fork.lines);
    expect(report.ok).toBe(true);
    expect(report.fork.estimatedTokens).toBe(report.original.estimatedTokens);
  });

  it('refuses what it must not or cannot do, and leaves those lines alone', () => {
    const lines = readLines(generatedPath('02-gone-drift-errors'));
    let errorAt: { uuid: string; line: number; blockIndex: number; id: string } | undefined;
    lines.forEach((text, i) => {
      const r = JSON.parse(text);
      const c = r.message?.content;
      if (!errorAt && Array.isArray(c)) c.forEach((b: { type: string; is_error?: boolean; tool_use_id: string }, j: number) => {
        if (b.type === 'tool_result' && b.is_error === true) errorAt = { uuid: r.uuid, line: i + 1, blockIndex: j, id: b.tool_use_id };
      });
    });
    expect(errorAt).toBeDefined();
    const good = candidateActions(lines).find((a) => a.target === 'tool-result')!;
    const fork = buildFork(
      lines,
      [
        { uuid: errorAt!.uuid, blockIndex: errorAt!.blockIndex, target: 'tool-result', tombstone: '[x]' },
        { uuid: 'no-such-uuid', blockIndex: 0, target: 'tool-result', tombstone: '[x]' },
        { ...good, toolUseId: 'toolu_wrong' },
        { ...good, tombstone: '   ' },
        { ...good, tombstone: 'x'.repeat(100_000) },
        { ...good, target: 'tool-input' },
      ],
      NEW_ID,
    );
    expect(fork.applied).toEqual([]);
    expect(fork.refused.map((r) => r.code)).toEqual(['error_result', 'record_not_found', 'tool_use_mismatch', 'empty_tombstone', 'not_smaller', 'wrong_block']);
    expect(fork.touchedLines).toEqual([]);
  });

  it('refuses to re-serialise a line that is not in compact JSON form, but still renames its session', () => {
    const lines = readLines(generatedPath('01-superseded-reads'));
    const action = candidateActions(lines).find((a) => a.target === 'tool-result')!;
    const spaced = lines.slice();
    spaced[action.line! - 1] = JSON.stringify(JSON.parse(lines[action.line! - 1] as string), null, 1).replace(/\n/g, ' ');
    const fork = buildFork(spaced, [action], NEW_ID);
    expect(fork.refused.map((r) => r.code)).toEqual(['not_compact_json']);
    const out = fork.lines[action.line! - 1] as string;
    expect(JSON.parse(out).sessionId).toBe(NEW_ID);
    expect(out.replace(NEW_ID, JSON.parse(spaced[action.line! - 1] as string).sessionId)).toBe(spaced[action.line! - 1]);
    expect(validateFork(spaced, fork.lines).ok).toBe(true);
  });

  it('applies two actions on one record (several results in one message, as older clients write them)', () => {
    const lines = readLines(generatedPath('01-superseded-reads'));
    const results = candidateActions(lines).filter((a) => a.target === 'tool-result').slice(0, 2);
    const [a, b] = results.map((x) => JSON.parse(lines[x.line! - 1] as string));
    a.message.content = [...a.message.content, ...b.message.content];
    const merged = [JSON.stringify(a)];
    const fork = buildFork(merged, [
      { uuid: a.uuid, blockIndex: 0, target: 'tool-result', tombstone: '[glassbox: first]' },
      { uuid: a.uuid, blockIndex: a.message.content.length - 1, target: 'tool-result', tombstone: '[glassbox: second]' },
    ], NEW_ID);
    expect(fork.refused).toEqual([]);
    const out = JSON.parse(fork.lines[0] as string);
    expect(out.message.content[0].content).toBe('[glassbox: first]');
    expect(out.message.content[a.message.content.length - 1].content).toBe('[glassbox: second]');
  });

  it('renames only the record\'s own sessionId, not one nested inside it', () => {
    const lines = readLines(generatedPath('06-fork-session'));
    const i = lines.findIndex((l) => l.includes('"type":"assistant"'));
    const r = JSON.parse(lines[i] as string);
    const withNested = { ...r, forkedFrom: { sessionId: r.sessionId, messageUuid: r.uuid } };
    const line = JSON.stringify(withNested);
    const out = buildFork([line], [], NEW_ID).lines[0] as string;
    const back = JSON.parse(out);
    expect(back.sessionId).toBe(NEW_ID);
    expect(back.forkedFrom.sessionId).toBe(r.sessionId);
    expect(out).toBe(line.replace(`"sessionId":"${r.sessionId}","version"`, `"sessionId":"${NEW_ID}","version"`));
  });
});

describe('records that repeat a payload (Claude Code 2.1.33x request logs) and the second session id', () => {
  const lines = readLines(generatedPath('19-newest-client-window'));
  const blobAt = lines.findIndex((l) => l.startsWith('{"type":"api-request-blob"') && l.includes('"tool_result"'));
  const blob = JSON.parse(lines[blobAt] as string) as { message: { content: { type: string; tool_use_id?: string; content?: unknown }[] } };
  const copied = blob.message.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id as string);

  it('the fixture logs two read results whole beside the nested CLAUDE.md (a message no record holds as sent)', () => {
    expect(copied).toHaveLength(2);
  });

  it('a fork tombstones the copies as it tombstones the results, and validates', () => {
    const actions = candidateActions(lines).filter((a) => a.toolUseId !== undefined && copied.includes(a.toolUseId));
    expect(actions).toHaveLength(2);
    const fork = buildFork(lines, actions, NEW_ID);
    expect(fork.applied).toHaveLength(2);
    expect(fork.touchedLines).toContain(blobAt + 1);
    const out = JSON.parse(fork.lines[blobAt] as string) as typeof blob;
    for (const b of out.message.content.filter((x) => x.type === 'tool_result')) expect(b.content).toBe(actions[0]?.tombstone);
    // what the model was sent of each is gone from the log too (an identical later read stays where it is)
    for (const a of fork.applied) for (const r of a.removed.filter((x) => x.sentToModel)) expect(fork.lines[blobAt]).not.toContain(JSON.stringify(r.text).slice(1, -1));
    const report = validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('the validator refuses a fork that leaves a copy of a removed payload, and names the line', () => {
    const actions = candidateActions(lines).filter((a) => a.toolUseId !== undefined && copied.includes(a.toolUseId));
    const fork = buildFork(lines, actions, NEW_ID);
    const leaky = [...fork.lines];
    leaky[blobAt] = (lines[blobAt] as string).replace(/"sessionId":"[^"]+"/, `"sessionId":"${NEW_ID}"`);
    const report = validateFork(lines, leaky);
    const copies = report.checks.find((c) => c.id === 'copies');
    expect(copies?.ok).toBe(false);
    expect(copies?.failures[0]?.line).toBe(blobAt + 1);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['copies']);
  });

  it('on a model that takes reminders inside the result, the log holds the trimmed text and the reminder: the tombstone goes before the reminder', () => {
    const models = readLines(generatedPath('20-newest-client-models'));
    const at = models.findIndex((l) => l.startsWith('{"type":"api-request-blob"') && l.includes('"tool_result"'));
    const block = (JSON.parse(models[at] as string) as typeof blob).message.content.find((b) => b.type === 'tool_result');
    expect(String(block?.content)).toMatch(/\n\n<system-reminder>\n<total_tokens>/);
    const action = candidateActions(models).find((a) => a.toolUseId === block?.tool_use_id);
    const fork = buildFork(models, action ? [action] : [], NEW_ID);
    const out = (JSON.parse(fork.lines[at] as string) as typeof blob).message.content.find((b) => b.type === 'tool_result');
    expect(String(out?.content)).toMatch(new RegExp(`^${(action?.tombstone ?? '').replace(/[[\]().*+?^$|\\]/g, '\\$&')}\n\n<system-reminder>\n<total_tokens>`));
    expect(validateFork(models, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines }).ok).toBe(true);
    const leaky = [...fork.lines];
    leaky[at] = (models[at] as string).replace(/"sessionId":"[^"]+"/, `"sessionId":"${NEW_ID}"`);
    expect(validateFork(models, leaky).checks.find((c) => c.id === 'copies')?.ok).toBe(false);
  });

  it('every session_id of an interactive session is renamed with its sessionId; one left behind is refused', () => {
    const tui = readLines(generatedPath('22-newest-client-tui'));
    const sid = (JSON.parse(tui.find((l) => l.includes('"session_id"')) as string) as { sessionId: string }).sessionId;
    expect(tui.filter((l) => l.includes(`"session_id":"${sid}"`)).length).toBeGreaterThan(20);
    const fork = buildFork(tui, candidateActions(tui), NEW_ID);
    expect(fork.lines.some((l) => l.includes(`"sessionId":"${sid}"`) || l.includes(`"session_id":"${sid}"`))).toBe(false);
    expect(validateFork(tui, fork.lines).ok).toBe(true);
    const i = fork.lines.findIndex((l) => l.includes(`"session_id":"${NEW_ID}"`) && !fork.touchedLines.includes(fork.lines.indexOf(l) + 1));
    const stale = [...fork.lines];
    stale[i] = (stale[i] as string).replace(`"session_id":"${NEW_ID}"`, `"session_id":"${sid}"`);
    const report = validateFork(tui, stale);
    expect(report.checks.find((c) => c.id === 'session-id')?.ok).toBe(false);
  });
});

describe('what a fork never removes, by what the newest client does with it', () => {
  it('a ToolSearch result that loads deferred tools is refused: the client expands it into the tools', () => {
    const lines = readLines(generatedPath('21-newest-client-agents-tools'));
    const id = lines.map((l) => JSON.parse(l) as { message?: { content?: unknown } }).flatMap((r) => (Array.isArray(r.message?.content) ? (r.message.content as { type?: string; content?: unknown; tool_use_id?: string }[]) : []))
      .find((b) => b.type === 'tool_result' && Array.isArray(b.content) && (b.content as { type?: string }[]).some((x) => x.type === 'tool_reference'))?.tool_use_id;
    const action = candidateActions(lines).find((a) => a.toolUseId === id);
    expect(action).toBeDefined();
    const fork = buildFork(lines, action ? [action] : [], NEW_ID);
    expect(fork.refused.map((r) => r.code)).toEqual(['loads_tools']);
  });

  it('a token-capped read loses its truncation flag with its text (2.1.332 would add a PARTIAL-view note otherwise)', () => {
    const lines = readLines(generatedPath('03-large-outputs'));
    const capped = candidateActions(lines).filter((a) => (lines.find((l) => l.includes(`"tool_use_id":"${a.toolUseId ?? '-'}"`)) ?? '').includes('"truncatedByTokenCap":true'));
    expect(capped.length).toBeGreaterThan(0);
    const fork = buildFork(lines, capped, NEW_ID);
    expect(fork.applied.flatMap((a) => a.removed.map((r) => r.path))).toContain('toolUseResult.file.truncatedByTokenCap');
    for (const l of fork.touchedLines) expect(fork.lines[l - 1]).not.toContain('"truncatedByTokenCap":true');
    expect(validateFork(lines, fork.lines, { actions: fork.applied.map((a) => a.action), touchedLines: fork.touchedLines }).ok).toBe(true);
  });
});
