import { outputText } from './blocks';
import { isObject, str, type JsonObject } from './json';

/**
 * Which records of a forked thread's rollout are its parent's history copied in (docs/codex/format.md,
 * "Forked threads"). A thread Codex forks from another one — a subagent spawned with its parent's
 * context — starts its rollout with a copy of the parent's history, usage events included in some
 * versions. That usage is the parent's requests, billed and counted in the parent's own file: it is
 * not the thread's. Codex marks the copy itself, in one of two ways:
 *
 * - multi-agent v2 (0.16x): `session_meta.subagent_history_start_ordinal` — every record numbered
 *   below it is copied (the parent's `session_meta` first);
 * - older builds copy the parent's rollout whole, its `session_meta` first, right after the thread's
 *   own, and end the copy with the output of the spawn call: a fixed sentence (SPAWNED_AGENT_OUTPUT).
 *
 * A copy that never reaches its end marker is not known to end anywhere: nothing after its start is
 * counted as the thread's usage, and the parser says so.
 *
 * The state is JSON, so the list's summary carries it from one pass to the next.
 */
export interface InheritedState {
  /**
   * `own`: not (or no longer) in a copy; `ordinal`: records numbered below `before` are copied;
   * `await`: a forked thread whose copy, if any, starts with the next record; `copy`: inside a copy
   * that ends at the spawn output.
   */
  mode: 'own' | 'ordinal' | 'await' | 'copy';
  before: number | null;
}

/** What Codex writes as the output of the spawn call that ends a copied parent history (its source, FORKED_SPAWN_AGENT_OUTPUT_MESSAGE). */
const SPAWNED_AGENT_OUTPUT = 'You are the newly spawned agent. The prior conversation history was forked from your parent agent.';

export function ownHistory(): InheritedState {
  return { mode: 'own', before: null };
}

/** The state a thread's first `session_meta` sets. */
export function fromSessionMeta(p: JsonObject): InheritedState {
  const start = p['subagent_history_start_ordinal'];
  if (typeof start === 'number' && Number.isInteger(start) && start > 0) return { mode: 'ordinal', before: start };
  const source = p['source'];
  const subagent = isObject(source) && source['subagent'] !== undefined;
  return str(p['forked_from_id']) !== undefined || subagent ? { mode: 'await', before: null } : ownHistory();
}

export interface InheritedRecord {
  type: string;
  payload: JsonObject | null;
  ordinal?: number | undefined;
}

/**
 * Whether a record after the first is part of the copied parent history; advances the state. `ended`
 * is true on the record after which the thread's own history begins (the last copied one, or the
 * first own one when the copy is told by ordinals).
 */
export function inheritedRecord(s: InheritedState, r: InheritedRecord): { inherited: boolean; ended: boolean } {
  switch (s.mode) {
    case 'own':
      return { inherited: false, ended: false };
    case 'ordinal': {
      if (r.ordinal !== undefined && s.before !== null && r.ordinal < s.before) return { inherited: true, ended: false };
      s.mode = 'own';
      return { inherited: false, ended: true };
    }
    case 'await':
      if (r.type === 'session_meta') {
        s.mode = 'copy';
        return { inherited: true, ended: false };
      }
      // No copy follows the thread's header (`codex exec fork` files point to their parent instead).
      s.mode = 'own';
      return { inherited: false, ended: false };
    case 'copy':
      if (isSpawnOutput(r)) {
        s.mode = 'own';
        return { inherited: true, ended: true };
      }
      return { inherited: true, ended: false };
  }
}

function isSpawnOutput(r: InheritedRecord): boolean {
  const p = r.payload;
  if (r.type !== 'response_item' || !p || p['type'] !== 'function_call_output') return false;
  return outputText(p['output']).startsWith(SPAWNED_AGENT_OUTPUT);
}

/** The state from an adapter-private JSON value (an older summary has none: own history). */
export function readInherited(x: unknown): InheritedState {
  if (!isObject(x)) return ownHistory();
  const mode = x['mode'];
  const before = typeof x['before'] === 'number' ? x['before'] : null;
  return mode === 'ordinal' || mode === 'await' || mode === 'copy' ? { mode, before } : ownHistory();
}
