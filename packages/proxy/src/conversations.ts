import { requestEnvironment, type ReadRequest } from '@glassbox/request-anthropic';
import type { ProxyArchive } from './archive';
import type { DecideSettings, NewRemoval } from './decide';
import type { RequestEvent } from './records';
import { loadState, newState, type ConversationState } from './state';

/**
 * The conversations a running proxy has seen, each with its state, and the one writer of their
 * records: a removal's payload and record reach the archive before any request carries its
 * tombstone, so everything a request lacks can be had back.
 */
/** Two hours: past the 1-hour cache, nothing of a conversation's state is lost by reloading it from its records. */
const IDLE_FORGET_MS = 2 * 60 * 60_000;

export class Conversations {
  private readonly states = new Map<string, ConversationState>();

  constructor(
    readonly archive: ProxyArchive,
    readonly settings: DecideSettings,
    readonly log: (line: string) => void,
  ) {}

  get(id: string, request: ReadRequest, sessionId: string | null, now: number): { state: ConversationState; fresh: boolean } {
    const known = this.states.get(id);
    if (known) return { state: known, fresh: false };
    this.forgetIdle(now);
    const onDisk = this.archive.conversations().includes(id);
    const state = onDisk ? loadState(this.archive, id, this.settings.cacheTtlMs) : newState(id);
    if (!onDisk) this.archive.writeMeta({ id, firstSeen: new Date(now).toISOString(), sessionId, cwd: requestEnvironment(request).cwd, model: request.model });
    this.states.set(id, state);
    return { state, fresh: true };
  }

  /**
   * A long-lived proxy lets go of conversations idle for longer than the longest cache lifetime:
   * their records hold all it needs to take them up again.
   */
  private forgetIdle(now: number): void {
    for (const [id, s] of this.states) if (s.lastActivityAt !== null && now - s.lastActivityAt > IDLE_FORGET_MS) this.states.delete(id);
  }

  /** Archives each payload (checked against the hash its record names), then writes the record. */
  archiveRemovals(state: ConversationState, added: readonly NewRemoval[]): void {
    for (const a of added) {
      const sha = this.archive.putPayload(a.payload);
      if (sha !== a.record.sha256) throw new Error(`the archive stored ${sha.slice(0, 12)} for a payload hashed ${a.record.sha256.slice(0, 12)}`);
    }
    for (const a of added) this.archive.appendRemoval(state.id, a.record);
  }

  suspend(state: ConversationState, reason: string): void {
    state.suspended = reason;
    this.log(`conversation ${state.id}: rewrites suspended (${reason}); its requests go through as the client sends them`);
  }

  record(state: ConversationState, event: RequestEvent): void {
    try {
      this.archive.appendEvent(state.id, event);
    } catch (error) {
      this.log(`conversation ${state.id}: its request record could not be written (${(error as Error).message})`);
    }
  }
}
