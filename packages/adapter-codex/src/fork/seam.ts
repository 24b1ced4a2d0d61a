import {
  type AppliedAction,
  type CheckResult,
  type ForkAction,
  type ForkResult,
  type RefusedAction,
  type ValidateOptions,
  type ValidationReport,
  type ValidationSide,
} from '@glassbox/core';
import { ITEM_TYPES } from '../generation';
import { utf8Bytes } from '../hash';
import { tokensOf } from '../tokens';
import { isObject, parseObject, str } from '../json';
import { buildCodexFork, type CodexForkAction } from './apply';
import { validateCodexFork } from './validate';

/**
 * The Codex fork builder and validator in the agent seam's terms (core's fork types). Codex nodes
 * are named `L<line>`, so an action without a line takes it from its uuid. A file the builder
 * refuses as a whole (no session header, a `codex exec fork` file that resumes through its parent)
 * comes back unchanged with every action refused with that reason: its validation then fails too.
 */
export function buildFork(lines: readonly string[], actions: readonly ForkAction[], newSessionId: string): ForkResult {
  const own: CodexForkAction[] = actions.map((a) => {
    const x: CodexForkAction = { uuid: a.uuid, line: a.line ?? lineOfUuid(a.uuid), blockIndex: a.blockIndex, target: a.target, tombstone: a.tombstone };
    if (a.toolUseId !== undefined) x.toolUseId = a.toolUseId;
    if (a.segmentId !== undefined) x.segmentId = a.segmentId;
    return x;
  });
  const r = buildCodexFork(lines, own, newSessionId);
  const originalOf = (x: CodexForkAction): ForkAction => actions[own.indexOf(x)] as ForkAction;
  const originalSessionIds = r.originalSessionId ? [r.originalSessionId] : [];
  if (r.lines === null) {
    const refusedFile = r.refusedFile ?? 'the file cannot be forked';
    return {
      lines: [...lines],
      newSessionId,
      originalSessionIds,
      applied: [],
      refused: actions.map((action) => ({ action, code: 'file_refused', message: refusedFile })),
      touchedLines: [],
    };
  }
  const names = callNames(lines, new Set(r.applied.map((a) => a.callId)));
  const applied: AppliedAction[] = r.applied.map((a) => ({
    action: originalOf(a.action),
    line: a.line,
    toolName: names.get(a.callId) ?? 'tool',
    removed: [{ path: 'payload.output', text: a.removed, sentToModel: true }],
    bytesBefore: a.bytesBefore,
    bytesAfter: a.bytesAfter,
  }));
  const refused: RefusedAction[] = r.refused.map((x) => ({ action: originalOf(x.action), code: x.code, message: x.message, line: x.action.line }));
  return { lines: r.lines, newSessionId, originalSessionIds, applied, refused, touchedLines: r.touchedLines };
}

export function validateFork(original: readonly string[], fork: readonly string[], options: ValidateOptions = {}): ValidationReport {
  const planned = options.actions?.map((a) => a.line ?? lineOfUuid(a.uuid));
  const v = validateCodexFork(original, fork, planned ? { plannedLines: planned } : {});
  const checks: CheckResult[] = v.checks.map((c) => ({ id: c.id, title: c.title, ok: c.ok, failures: c.failures.map((f) => ({ line: f.line, detail: f.detail })), more: c.more }));
  if (options.touchedLines) {
    const said = [...options.touchedLines].sort((a, b) => a - b);
    const seen = v.touchedLines;
    const same = said.length === seen.length && said.every((l, i) => l === seen[i]);
    checks.push({
      id: 'reported-touched',
      title: 'the lines the fork writer reports as changed are the lines that changed',
      ok: same,
      failures: same ? [] : [{ detail: `reported ${said.join(', ') || 'none'}, changed ${seen.join(', ') || 'none'}` }],
      more: 0,
    });
  }
  return {
    ok: checks.every((c) => c.ok),
    checks,
    original: side(original, v.originalSessionId),
    fork: side(fork, v.forkSessionId),
    touchedLines: v.touchedLines,
  };
}

/** `L12` → 12; anything else → 0 (no such line: the builder refuses the action). */
function lineOfUuid(uuid: string): number {
  const m = /^L(\d+)$/.exec(uuid);
  return m ? Number(m[1]) : 0;
}

/** The tool names of the calls whose outputs were replaced, from their call records. */
function callNames(lines: readonly string[], callIds: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  if (callIds.size === 0) return out;
  for (const text of lines) {
    if (!text.includes('"call_id"') || text.includes('_output"')) continue;
    const r = parseObject(text);
    const item = r && isObject(r['payload']) ? r['payload'] : r;
    const id = str(item?.['call_id']);
    if (id && callIds.has(id)) out.set(id, str(item?.['name']) ?? str(item?.['type']) ?? 'tool');
  }
  return out;
}

/**
 * What resuming the file would send: the items after the last compaction (what the compaction
 * carried counted as one record), sized from their bytes.
 */
function side(lines: readonly string[], sessionId: string | null): ValidationSide {
  let live = 0;
  let bytes = 0;
  let leaf: string | null = null;
  lines.forEach((text, i) => {
    const r = parseObject(text);
    if (!r) return;
    const type = str(r['type']);
    const payload = isObject(r['payload']) ? r['payload'] : null;
    if (type === 'compacted' && payload) {
      const carried = payload['replacement_history'] ?? payload['message'] ?? '';
      live = 1;
      bytes = utf8Bytes(JSON.stringify(carried));
    } else if (type === 'response_item' || (payload === null && type !== undefined && ITEM_TYPES.has(type))) {
      live++;
      bytes += utf8Bytes(text);
    } else return;
    leaf = `L${i + 1}`;
  });
  return { sessionId, lines: lines.length, live, estimatedTokens: tokensOf(bytes), leafUuid: leaf };
}
