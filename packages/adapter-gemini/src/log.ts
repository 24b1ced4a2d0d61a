import { isObject, parseObject, str, type JsonObject, type Problem, type UsageRecord } from '@glassbox/core';
import { neutralUsage, tokensOfReply } from './usage';
import { emptyMeta, mergeMeta, recordKind, type ChatMeta, type Place, type PlacedMessage } from './records';
import { replySignature, type ReplySignature } from './reply-match';
import { partsOf, partsText } from './parts';
import { ignoredUserText, SESSION_CONTEXT_TAG } from './rules';

/** A full-replace record (`{"$set": {"messages": […]}}`): what it did to the history. */
export interface Replacement {
  at: Place;
  /** Messages before it that it left out. */
  dropped: string[];
  /** Messages of its list that were not there before. */
  added: string[];
  /** The leaf before it (the last message it replaced), for the compaction x-ray. */
  leafBefore: string | null;
}

/**
 * Replays a JSONL chat log (Gemini CLI 0.39 and later) record by record, as the client's loader does:
 * a message record replaces any earlier record of the same id in place (the last one wins, keeping the
 * first one's position); a rewind drops its message and everything after it (everything, when the id
 * is unknown); a `$set` merges session fields and, with `messages`, replaces the whole history; a
 * session record merges its fields (a resume within the minute the file was named in appends a
 * second one). Lines that do not parse are skipped, as the client skips them.
 */
export class LogReplay {
  readonly meta: ChatMeta = emptyMeta();
  readonly problems: Problem[] = [];
  readonly byType: Record<string, number> = {};
  readonly unknownTypes: Record<string, number> = {};
  readonly replacements: Replacement[] = [];
  records = 0;
  invalidLines = 0;
  lastInvalidLine: number | null = null;
  firstTimestamp: string | null = null;
  lastTimestamp: string | null = null;
  private messages = new Map<string, PlacedMessage>();
  /** Every reply that recorded usage, by id (the last record wins): replies a replace dropped still cost. */
  private readonly usage = new Map<string, UsageRecord>();
  /** Ids of every message written, in or out of the history now. */
  readonly seen = new Set<string>();
  /** What each reply with usage looked like when recorded: a rewrite that re-ids it is matched back by this. */
  readonly signatures = new Map<string, ReplySignature>();
  /**
   * The first prompt the log recorded, in or out of the history now: what the client's session list
   * shows for a chat without a summary (its loader takes the first user text it meets that it would
   * resume), which a later rewrite may have folded away.
   */
  firstPrompt: string | null = null;
  /** The subagent chat each call ran (`toolCalls[].agentId`), from every record: a rewrite drops the field. */
  readonly agentOfCall = new Map<string, string>();

  constructor(private readonly path: string) {}

  push(text: string, at: Place): void {
    if (text.trim() === '') return;
    const r = parseObject(text);
    if (!r) {
      this.invalidLines++;
      this.lastInvalidLine = at.line;
      this.problems.push({ code: 'invalid_json', severity: 'warning', file: this.path, line: at.line, message: `${this.path}:${at.line}: not a JSON object; the line was skipped (Gemini CLI skips it too)` });
      return;
    }
    this.lastInvalidLine = null;
    this.records++;
    const kind = recordKind(r);
    this.count(kind === 'message' ? `message/${str(r['type']) ?? '?'}` : kind === 'set' ? `$set/${Object.keys(r['$set'] as JsonObject).join('+')}` : kind);
    switch (kind) {
      case 'message':
        this.stamp(str(r['timestamp']));
        this.put({ id: r['id'] as string, message: r, at });
        return;
      case 'rewind':
        this.rewind(r['$rewindTo'] as string);
        return;
      case 'set':
        this.set(r['$set'] as JsonObject, at);
        return;
      case 'meta':
        mergeMeta(this.meta, r);
        this.stamp(str(r['startTime']));
        return;
      default:
        this.unknownTypes['record'] = (this.unknownTypes['record'] ?? 0) + 1;
    }
  }

  /** The history the client would resume, in its order. */
  history(): PlacedMessage[] {
    return [...this.messages.values()];
  }

  /** Usage of every reply the file recorded, in the order first seen. */
  usageSeen(): UsageRecord[] {
    return [...this.usage.values()];
  }

  private put(m: PlacedMessage): void {
    this.messages.set(m.id, m);
    this.seen.add(m.id);
    this.notePrompt(m.message);
    if (m.message['type'] !== 'gemini') return;
    const calls = m.message['toolCalls'];
    if (Array.isArray(calls)) for (const c of calls) if (isObject(c) && typeof c['id'] === 'string' && typeof c['agentId'] === 'string') this.agentOfCall.set(c['id'], c['agentId']);
    const t = tokensOfReply(m.message['tokens']);
    if (!t) return;
    const ts = str(m.message['timestamp']);
    this.signatures.set(m.id, replySignature(m.message));
    this.usage.set(m.id, { messageId: m.id, model: str(m.message['model']) ?? 'unknown', line: m.at.line, usage: neutralUsage(t), isSidechain: false, ...(ts ? { timestamp: ts } : {}) });
  }

  private rewind(id: string): void {
    if (!this.messages.has(id)) {
      this.messages.clear();
      return;
    }
    let found = false;
    for (const key of [...this.messages.keys()]) {
      if (key === id) found = true;
      if (found) this.messages.delete(key);
    }
  }

  private set(fields: JsonObject, at: Place): void {
    const list = fields['messages'];
    if (Array.isArray(list)) {
      const before = [...this.messages.keys()];
      const next = new Map<string, PlacedMessage>();
      list.forEach((m, i) => {
        if (isObject(m) && typeof m['id'] === 'string') next.set(m['id'], { id: m['id'], message: m, at, inList: i });
      });
      for (const m of next.values()) {
        this.seen.add(m.id);
        this.notePrompt(m.message);
      }
      const dropped = before.filter((id) => !next.has(id));
      const added = [...next.keys()].filter((id) => !this.messages.has(id));
      this.replacements.push({ at, dropped, added, leafBefore: before[before.length - 1] ?? null });
      this.messages = next;
      this.stamp(str(fields['lastUpdated']));
    }
    const { messages: _messages, ...rest } = fields;
    mergeMeta(this.meta, rest);
  }

  private notePrompt(message: JsonObject): void {
    if (this.firstPrompt !== null || message['type'] !== 'user') return;
    const content = message['content'];
    const text = (typeof content === 'string' ? content : partsText(partsOf(content).filter((p) => typeof p['text'] === 'string'))).trim();
    if (ignoredUserText(text) || text.startsWith(SESSION_CONTEXT_TAG)) return;
    this.firstPrompt = text;
  }

  private stamp(ts: string | undefined): void {
    if (!ts) return;
    this.firstTimestamp ??= ts;
    this.lastTimestamp = ts;
  }

  private count(key: string): void {
    this.byType[key] = (this.byType[key] ?? 0) + 1;
  }
}
