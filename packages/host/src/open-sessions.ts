import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { AgentRegistry } from '@glassbox/core';
import { fail, ok, type Result } from '@glassbox/contract';
import type { Grants } from './grants';
import type { Job } from './jobs';
import { runOptions } from './job-work';
import type { WorkPool } from './work/pool';
import type { AnalyzeOptions, OpenSummary, SessionRef } from './work/protocol';

/** A session the window opened, as this thread knows it (its parse and snapshots are in a work thread). */
export interface Opened {
  ref: SessionRef;
  summary: OpenSummary;
  external: boolean;
  /** Dropped bytes: their recorded working directory is not this machine's unless mapped (repo:map). */
  upload: boolean;
}

const UPLOAD_PREFIX = 'upload:';
const MAX_OPEN = 12;

/** What the open sessions need of the host. */
export interface OpenSessionsHost {
  work: WorkPool;
  grants: Grants;
  agents: AgentRegistry;
  /** The roots the list shows (a file outside them is "external"). */
  roots(): string[];
  repoRootFor(cwd: string | null): string | null;
  /** Browser mode: whoever holds the token sees only the disk the token scope allows (analyzeOptions). */
  scoped: boolean;
}

/**
 * The sessions the window has open, by path or upload key (the last few, most recent kept): opened in
 * a work thread on first use, a path only once the grant list admits it.
 */
export class OpenSessions {
  private readonly opened = new Map<string, Opened>();
  /** How often each path was forgotten (its file changed): a read that started before a change is older. */
  private readonly changes = new Map<string, number>();

  constructor(private readonly host: OpenSessionsHost) {}

  /** True for the key of a dropped file's bytes (it has no path on this machine). */
  static isUpload(path: string): boolean {
    return path.startsWith(UPLOAD_PREFIX);
  }

  /** Opens (or finds open) a session by path or upload key, in a work thread; a path must be admitted by the grant list. */
  async open(path: string, job?: Job): Promise<Result<Opened>> {
    if (OpenSessions.isUpload(path)) {
      const hit = this.opened.get(path);
      return hit ? ok(hit) : fail('not_found', 'That dropped file is no longer open.', 'Drop it again.');
    }
    if (!this.host.agents.isSessionFileName(basename(path))) return fail('not_jsonl', this.notSessionMessage(path), this.whereSessionsAre());
    const admitted = this.host.grants.admit(path);
    if (!admitted.ok) return admitted;
    const real = admitted.value;
    let st;
    try {
      st = statSync(real);
    } catch {
      return fail('not_found', `${path} does not exist (any more).`, 'Refresh the session list.');
    }
    if (!st.isFile()) return fail('unreadable', `${path} is not a regular file.`);
    const ref: SessionRef = { key: path, path: real };
    const summary = await this.host.work.run({ op: 'open', ref }, job ? runOptions(job, path) : { affinity: path });
    if (summary.fatal) return fail('not_a_transcript', summary.fatal, `Glassbox reads session transcripts of ${this.agentNames()}.`);
    const entry: Opened = { ref, summary, external: !this.host.roots().some((r) => path.startsWith(r + '/')), upload: false };
    this.remember(path, entry);
    return ok(entry);
  }

  /** A dropped file's bytes, opened in a work thread under an upload key made from their hash. */
  async upload(name: string, text: string): Promise<Result<{ key: string; summary: OpenSummary }>> {
    if (!this.host.agents.isSessionFileName(basename(name))) {
      return fail('not_jsonl', this.notSessionMessage(name), `Drop a session transcript. ${this.whereSessionsAre()}`);
    }
    const key = `${UPLOAD_PREFIX}${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}/${basename(name)}`;
    const summary = await this.host.work.run({ op: 'upload', key, name, text }, { affinity: key });
    if (summary.fatal) return fail('not_a_transcript', summary.fatal, 'The session list shows the folders each agent keeps its sessions in.');
    this.remember(key, { ref: { key, path: null }, summary, external: true, upload: true });
    return ok({ key, summary });
  }

  /** A dropped file the work thread no longer holds: forgotten here too, and the window told to drop it again. */
  gone(o: Opened): Result<never> {
    this.opened.delete(o.ref.key);
    return fail('not_found', 'That dropped file is no longer open.', 'Drop it again.');
  }

  /** The file changed or went: the next request opens it afresh. */
  forget(path: string): void {
    this.opened.delete(path);
    this.changes.set(path, (this.changes.get(path) ?? 0) + 1);
  }

  /** Grows each time the path's file changed or went (see forget). */
  generation(path: string): number {
    return this.changes.get(path) ?? 0;
  }

  /**
   * How a session is analysed: in its mapped folder, else its recorded one — never on disk for a
   * dropped file that is not mapped (proving "gone" for paths its bytes name would tell whoever sent
   * them which files exist here).
   */
  analyzeOptions(o: Opened, withInferred: boolean, model?: string): AnalyzeOptions {
    const repoRoot = this.host.repoRootFor(o.summary.cwd);
    return { repoRoot, withInferred, diskless: o.upload && repoRoot === null, readScope: this.readScope(o, repoRoot), ...(model !== undefined ? { model } : {}) };
  }

  /**
   * Token scope (browser mode; SECURITY.md): the disk a session's drift diffs and proofs may read. A
   * session under the roots: the roots, its own recorded working directory, and the folder it is
   * mapped to. Anything else (a dropped file, a file opened from elsewhere): only the folder the person
   * mapped it to, or nothing. Without it, a token holder could drop a transcript that "read" any path,
   * map its invented working directory to a real folder, and read the real file's lines in the diff.
   */
  private readScope(o: Opened, repoRoot: string | null): readonly string[] | null {
    if (!this.host.scoped) return null;
    const mapped = repoRoot === null ? [] : [repoRoot];
    if (o.upload || o.external) return mapped;
    return [...this.host.roots(), ...(o.summary.cwd ? [o.summary.cwd] : []), ...mapped];
  }

  private notSessionMessage(name: string): string {
    const ext = extname(name);
    return `${basename(name)} is not a session transcript: Glassbox opens ${this.host.agents.sessionExtensions().join(' and ')} files of ${this.agentNames()}${ext ? `, and this is a ${ext} file` : ''}. Nothing was written.`;
  }

  private whereSessionsAre(): string {
    return whereSessionsAreOf(this.host.agents, this.host.roots());
  }

  /** "Claude Code and Codex CLI": the agents this host reads, for messages. */
  private agentNames(): string {
    const names = this.host.agents.agents.map((a) => a.format.label);
    return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
  }

  private remember(key: string, entry: Opened): void {
    this.opened.delete(key);
    this.opened.set(key, entry);
    while (this.opened.size > MAX_OPEN) this.opened.delete(this.opened.keys().next().value as string);
  }
}

/** Where each agent keeps its sessions, for a hint: its roots on this machine and the file endings it writes. */
function whereSessionsAreOf(agents: AgentRegistry, roots: readonly string[]): string {
  const endings = agents.sessionExtensions().join(' or ');
  return `Agents keep sessions as ${endings} files${roots.length > 0 ? ` (here under ${roots.slice(0, 4).join(', ')})` : ''}.`;
}
