import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Archive, writeNewFileAtomic } from '@glassbox/store/fork';
import type { ConversationMeta, RemovalRecord, RequestEvent } from './records';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
const CONVERSATION_ID = /^[0-9a-f]{16}$/;

/**
 * The proxy's part of Glassbox's archive (docs/archive.md): removed payloads are objects named by
 * their sha-256 and checked on every read, exactly like a fork's; each conversation has a folder
 * `proxy/<id>/` with `meta.json`, `removals.jsonl` (one line per tombstone, with its proof) and
 * `events.jsonl` (one line per request, figures only). Folders are 0700 and files 0600.
 */
export class ProxyArchive {
  readonly objects: Archive;
  readonly dir: string;

  constructor(readonly root: string) {
    this.objects = new Archive(root);
    this.dir = join(root, 'proxy');
  }

  /** Creates the folders, private; an archive folder made earlier with wider rights is narrowed. */
  ensure(): void {
    for (const d of [this.root, this.dir]) {
      mkdirSync(d, { recursive: true, mode: PRIVATE_DIR });
      if ((statSync(d).mode & 0o077) !== 0) chmodSync(d, PRIVATE_DIR);
    }
  }

  private conversationDir(id: string): string {
    if (!CONVERSATION_ID.test(id)) throw new Error(`${id} is not a proxy conversation id`);
    return join(this.dir, id);
  }

  /** Stores a removed payload; returns its sha-256 (the name a tombstone shows the start of). */
  putPayload(bytes: Buffer): string {
    return this.objects.put(bytes).sha256;
  }

  /** A removed payload back, after checking its bytes against their name. */
  payload(sha256: string): Buffer {
    return this.objects.get(sha256);
  }

  writeMeta(meta: ConversationMeta): void {
    const dir = this.conversationDir(meta.id);
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    const path = join(dir, 'meta.json');
    if (!existsSync(path)) writeNewFileAtomic(path, JSON.stringify(meta, null, 2) + '\n');
  }

  appendRemoval(id: string, record: RemovalRecord): void {
    this.append(id, 'removals.jsonl', record);
  }

  appendEvent(id: string, event: RequestEvent): void {
    this.append(id, 'events.jsonl', event);
  }

  private append(id: string, file: string, value: object): void {
    const dir = this.conversationDir(id);
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    appendFileSync(join(dir, file), JSON.stringify(value) + '\n', { mode: PRIVATE_FILE });
  }

  conversations(): string[] {
    try {
      return readdirSync(this.dir).filter((n) => CONVERSATION_ID.test(n));
    } catch {
      return [];
    }
  }

  meta(id: string): ConversationMeta | null {
    try {
      return JSON.parse(readFileSync(join(this.conversationDir(id), 'meta.json'), 'utf8')) as ConversationMeta;
    } catch {
      return null;
    }
  }

  removals(id: string): RemovalRecord[] {
    return this.lines<RemovalRecord>(id, 'removals.jsonl');
  }

  events(id: string): RequestEvent[] {
    return this.lines<RequestEvent>(id, 'events.jsonl');
  }

  /** The records of a file; a line cut short by a crash (the last one) is skipped. */
  private lines<T>(id: string, file: string): T[] {
    let text: string;
    try {
      text = readFileSync(join(this.conversationDir(id), file), 'utf8');
    } catch {
      return [];
    }
    const out: T[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        // Only an interrupted append leaves a partial line; it holds nothing that was applied.
      }
    }
    return out;
  }
}
