import {
  buildForkFromLines,
  keyValues,
  validateFromLines,
  type AppliedAction,
  type CheckResult,
  type ForkAction,
  type ForkBuilder,
  type ForkOutcome,
  type ForkPrepared,
  type ForkResult,
  type ForkValidator,
  type RefusedAction,
  type TombstoneFill,
  type ValidateOptions,
  type ValidationReport,
  type ValidationSide,
} from '@glassbox/core';
import { ITEM_TYPES } from '../generation';
import { utf8Bytes } from '../hash';
import { tokensOf } from '../tokens';
import { isObject, parseObject, str } from '../json';
import { CodexForkBuilder, type CodexForkAction } from './apply';
import { CodexForkValidator } from './validate';

/**
 * The Codex fork builder and validator in the agent seam's terms (core's fork types), streaming like
 * their Codex-side halves. Codex nodes are named `L<line>`, so an action without a line takes it from
 * its uuid. A file the builder refuses as a whole (no session header, a `codex exec fork` file that
 * resumes through its parent) comes back unchanged with every action refused with that reason: its
 * validation then fails too.
 */
export function createForkBuilder(actions: readonly ForkAction[], newSessionId: string): ForkBuilder {
  return new SeamBuilder(actions, newSessionId);
}

export function createForkValidator(options: ValidateOptions = {}): ForkValidator {
  return new SeamValidator(options);
}

/** In memory (small files and tests): lines in, lines out. */
export function buildFork(lines: readonly string[], actions: readonly ForkAction[], newSessionId: string): ForkResult {
  return buildForkFromLines(createForkBuilder(actions, newSessionId), lines);
}

export function validateFork(original: readonly string[], fork: readonly string[], options: ValidateOptions = {}): ValidationReport {
  return validateFromLines(createForkValidator(options), original, fork);
}

class SeamBuilder implements ForkBuilder {
  private readonly own: CodexForkAction[];
  private readonly inner: CodexForkBuilder;
  /** Call ids whose tool names the outcome needs; null when some action does not name its call (then every call's). */
  private readonly wanted: Set<string> | null;
  private readonly names = new Map<string, string>();
  private prepared: ForkPrepared | null = null;
  private originalSessionIds: string[] = [];

  constructor(
    private readonly actions: readonly ForkAction[],
    private readonly newSessionId: string,
  ) {
    this.own = actions.map((a) => {
      const x: CodexForkAction = { uuid: a.uuid, line: a.line ?? lineOfUuid(a.uuid), blockIndex: a.blockIndex, target: a.target, tombstone: a.tombstone };
      if (a.toolUseId !== undefined) x.toolUseId = a.toolUseId;
      if (a.segmentId !== undefined) x.segmentId = a.segmentId;
      return x;
    });
    this.inner = new CodexForkBuilder(this.own, newSessionId);
    const ids = actions.map((a) => a.toolUseId);
    this.wanted = ids.every((id) => id !== undefined) ? new Set(ids as string[]) : null;
  }

  index(text: string, line: number): void {
    this.inner.index(text, line);
    // The tool names of the calls whose outputs may be replaced, from their call records.
    if (this.actions.length === 0 || !text.includes('"call_id"') || text.includes('_output"')) return;
    const wanted = this.wanted;
    if (wanted !== null && !keyValues(text, '"call_id":"').some((v) => wanted.has(v))) return;
    const r = parseObject(text);
    const item = r && isObject(r['payload']) ? r['payload'] : r;
    const id = str(item?.['call_id']);
    if (id && (wanted === null || wanted.has(id))) this.names.set(id, str(item?.['name']) ?? str(item?.['type']) ?? 'tool');
  }

  prepare(fill?: TombstoneFill): ForkPrepared {
    if (this.prepared) return this.prepared;
    // A fill rewrites an action's tombstone from the output it replaces (before the splice reads it).
    const filled = this.actions.map((a, i) => {
      const f = fill?.(a);
      const own = this.own[i] as CodexForkAction;
      const output = f ? this.inner.outputAt(own.line) : null;
      if (!f || output === null) return a;
      own.tombstone = f({ path: 'payload.output', text: output, sentToModel: true });
      return { ...a, tombstone: own.tombstone };
    });
    const r = this.inner.prepare();
    const originalOf = (x: CodexForkAction): ForkAction => filled[this.own.indexOf(x)] as ForkAction;
    this.originalSessionIds = r.originalSessionId ? [r.originalSessionId] : [];
    if (r.refusedFile !== null) {
      const refusedFile = r.refusedFile;
      this.prepared = { applied: [], refused: this.actions.map((action) => ({ action, code: 'file_refused', message: refusedFile })), touchedLines: [] };
      return this.prepared;
    }
    const applied: AppliedAction[] = r.applied.map((a) => ({
      action: originalOf(a.action),
      line: a.line,
      toolName: this.names.get(a.callId) ?? 'tool',
      removed: [{ path: 'payload.output', text: a.removed, sentToModel: true }],
      bytesBefore: a.bytesBefore,
      bytesAfter: a.bytesAfter,
    }));
    const refused: RefusedAction[] = r.refused.map((x) => ({ action: originalOf(x.action), code: x.code, message: x.message, line: x.action.line }));
    this.prepared = { applied, refused, touchedLines: r.touchedLines };
    return this.prepared;
  }

  transform(text: string, line: number): string {
    this.prepare();
    return this.inner.transform(text, line);
  }

  finish(): ForkOutcome {
    return { ...this.prepare(), newSessionId: this.newSessionId, originalSessionIds: this.originalSessionIds };
  }
}

class SeamValidator implements ForkValidator {
  private readonly inner: CodexForkValidator;
  private readonly original = new Side();
  private readonly fork = new Side();

  constructor(private readonly options: ValidateOptions) {
    const planned = options.actions?.map((a) => a.line ?? lineOfUuid(a.uuid));
    this.inner = new CodexForkValidator(planned ? { plannedLines: planned } : {});
  }

  pair(original: string | undefined, fork: string | undefined, line: number): void {
    this.inner.pair(original, fork, line);
    if (original !== undefined) this.original.add(original, line);
    if (fork !== undefined) this.fork.add(fork, line);
  }

  finish(): ValidationReport {
    const v = this.inner.finish();
    const checks: CheckResult[] = v.checks.map((c) => ({ id: c.id, title: c.title, ok: c.ok, failures: c.failures.map((f) => ({ line: f.line, detail: f.detail })), more: c.more }));
    if (this.options.touchedLines) {
      const said = [...this.options.touchedLines].sort((a, b) => a - b);
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
      original: this.original.result(v.originalSessionId),
      fork: this.fork.result(v.forkSessionId),
      touchedLines: v.touchedLines,
    };
  }
}

/** `L12` → 12; anything else → 0 (no such line: the builder refuses the action). */
function lineOfUuid(uuid: string): number {
  const m = /^L(\d+)$/.exec(uuid);
  return m ? Number(m[1]) : 0;
}

/**
 * What resuming one side would send, counted as its lines go by: the items after the last compaction
 * (what the compaction carried counted as one record), sized from their bytes.
 */
class Side {
  private live = 0;
  private bytes = 0;
  private leaf: string | null = null;
  private lines = 0;

  add(text: string, line: number): void {
    this.lines = line;
    const r = parseObject(text);
    if (!r) return;
    const type = str(r['type']);
    const payload = isObject(r['payload']) ? r['payload'] : null;
    if (type === 'compacted' && payload) {
      const carried = payload['replacement_history'] ?? payload['message'] ?? '';
      this.live = 1;
      this.bytes = utf8Bytes(JSON.stringify(carried));
    } else if (type === 'response_item' || (payload === null && type !== undefined && ITEM_TYPES.has(type))) {
      this.live++;
      this.bytes += utf8Bytes(text);
    } else return;
    this.leaf = `L${line}`;
  }

  result(sessionId: string | null): ValidationSide {
    return { sessionId, lines: this.lines, live: this.live, estimatedTokens: tokensOf(this.bytes), leafUuid: this.leaf };
  }
}
