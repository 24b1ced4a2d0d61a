import { existsSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { DiscoveredFile } from '@glassbox/core';
import { CLAUDE_CODE } from '../identity';
import { legacyAgentNames, legacyAgentsOf } from './legacy-agents';

/**
 * The projects folders to look in: `CLAUDE_CONFIG_DIR` (one path or a comma list; each a config folder
 * or its `projects/` folder), else `~/.config/claude` and `~/.claude`.
 */
export function projectRoots(env: NodeJS.ProcessEnv = process.env, home = homedir()): string[] {
  const configured = env['CLAUDE_CONFIG_DIR'];
  const bases = configured
    ? configured.split(',').map((s) => s.trim()).filter(Boolean)
    : [join(home, '.config', 'claude'), join(home, '.claude')];
  const roots: string[] = [];
  for (const base of bases) {
    const root = basename(base) === 'projects' ? base : join(base, 'projects');
    if (!roots.includes(root)) roots.push(root);
  }
  return roots;
}

const JSONL = /\.jsonl$/i;
/** A legacy subagent file's name, as the client writes it. */
const LEGACY_AGENT = /^agent-.+\.jsonl$/;

/**
 * Every transcript under the given projects roots: `<root>/<project>/<session>.jsonl`, its
 * `<session>/subagents/agent-*.jsonl`, and legacy `agent-*.jsonl` files beside the sessions (their
 * parent is known only once their first record is read). Each folder is listed once, so discovery
 * costs one readdir per project and per session that has a folder, whatever the tree's size.
 */
export function discoverFiles(roots: readonly string[]): DiscoveredFile[] {
  const out: DiscoveredFile[] = [];
  for (const root of roots) {
    for (const project of listDir(root)) {
      if (!project.isDirectory()) continue;
      const projectDir = join(root, project.name);
      const entries = listDir(projectDir);
      const dirs = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
      for (const e of entries) {
        if (e.isDirectory() || e.name.startsWith('.') || !JSONL.test(e.name)) continue;
        const path = join(projectDir, e.name);
        const id = e.name.slice(0, -'.jsonl'.length);
        if (e.name.startsWith('agent-')) {
          out.push({ agent: CLAUDE_CODE, path, root, project: project.name, kind: 'subagent', parentPath: null, agentId: id.slice(6), sessionId: '' });
          continue;
        }
        out.push({ agent: CLAUDE_CODE, path, root, project: project.name, kind: 'session', parentPath: null, agentId: null, sessionId: id });
        if (!dirs.has(id)) continue;
        for (const s of listDir(join(projectDir, id, 'subagents'))) {
          const m = /^agent-(.+)\.jsonl$/i.exec(s.name);
          if (!m?.[1] || s.isDirectory()) continue;
          out.push({
            agent: CLAUDE_CODE,
            path: join(projectDir, id, 'subagents', s.name),
            root,
            project: project.name,
            kind: 'subagent',
            parentPath: path,
            agentId: m[1],
            sessionId: id,
          });
        }
      }
    }
  }
  return out;
}

/**
 * What a file opened from anywhere (dropped on the app, named on the command line) is: a subagent
 * file when it sits in `<session>/subagents/`, else a session; its project is its folder's name.
 */
export function describeOpenedFile(path: string): Omit<DiscoveredFile, 'root'> {
  const name = basename(path);
  const id = name.replace(JSONL, '');
  const dir = dirname(path);
  const agent = /^agent-(.+)$/.exec(id);
  if (agent?.[1] && basename(dir) === 'subagents') {
    const sessionDir = dirname(dir);
    return {
      agent: CLAUDE_CODE,
      path,
      project: basename(dirname(sessionDir)),
      kind: 'subagent',
      parentPath: join(dirname(sessionDir), `${basename(sessionDir)}.jsonl`),
      agentId: agent[1],
      sessionId: basename(sessionDir),
    };
  }
  if (agent?.[1]) {
    // A legacy subagent file beside its session: the parent is known once its first record is read.
    return { agent: CLAUDE_CODE, path, project: basename(dir), kind: 'subagent', parentPath: null, agentId: agent[1], sessionId: '' };
  }
  return { agent: CLAUDE_CODE, path, project: basename(dir), kind: 'session', parentPath: null, agentId: null, sessionId: id };
}

/** Session files (not subagent files) by id, or by an unambiguous id prefix of at least 6 characters. */
export function findSessionById(id: string, roots: readonly string[]): { found: DiscoveredFile[] } {
  const all = discoverFiles(roots).filter((f) => f.kind === 'session');
  const exact = all.filter((s) => s.sessionId === id);
  if (exact.length > 0) return { found: exact };
  if (id.length >= 6) return { found: all.filter((s) => s.sessionId.startsWith(id)) };
  return { found: [] };
}

function listDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

export interface SubagentFile {
  agentId: string;
  path: string;
  meta?: { agentType?: string; description?: string; toolUseId?: string };
}

/**
 * Subagent transcripts of a session: `<session>/subagents/agent-<id>.jsonl` (2.1.2+, with a
 * `.meta.json` beside each), or legacy `agent-<id>.jsonl` files beside the session that name its id.
 */
export function listSubagentFiles(sessionPath: string, sessionId: string): SubagentFile[] {
  const out: SubagentFile[] = [];
  const dir = join(dirname(sessionPath), basename(sessionPath).replace(/\.jsonl$/i, ''), 'subagents');
  if (existsSync(dir)) {
    for (const name of safeList(dir)) {
      const m = /^agent-(.+)\.jsonl$/.exec(name);
      if (!m || !m[1]) continue;
      const ref: SubagentFile = { agentId: m[1], path: join(dir, name) };
      const meta = readMeta(join(dir, `agent-${m[1]}.meta.json`));
      if (meta) ref.meta = meta;
      out.push(ref);
    }
  }
  for (const name of legacyAgentsOf(dirname(sessionPath), sessionId, LEGACY_AGENT)) {
    out.push({ agentId: name.slice('agent-'.length, -'.jsonl'.length), path: join(dirname(sessionPath), name) });
  }
  return out;
}

/** Persisted tool outputs of a session (`<session>/tool-results/*`), with their sizes. */
export function listToolResultFiles(sessionPath: string): { path: string; bytes: number }[] {
  const dir = join(dirname(sessionPath), basename(sessionPath).replace(/\.jsonl$/i, ''), 'tool-results');
  return safeList(dir).map((name) => {
    const path = join(dir, name);
    let bytes: number;
    try {
      bytes = statSync(path).size;
    } catch {
      bytes = 0;
    }
    return { path, bytes };
  });
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function readMeta(path: string): SubagentFile['meta'] | undefined {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const meta: NonNullable<SubagentFile['meta']> = {};
    if (typeof raw['agentType'] === 'string') meta.agentType = raw['agentType'];
    if (typeof raw['description'] === 'string') meta.description = raw['description'];
    if (typeof raw['toolUseId'] === 'string') meta.toolUseId = raw['toolUseId'];
    return meta;
  } catch {
    return undefined;
  }
}

/**
 * Files that may hold a session's subagents, by their folder entries alone (none is opened): legacy
 * `agent-*.jsonl` beside the session and `<session>/subagents/*.jsonl`.
 */
export function subagentCandidates(sessionPath: string): string[] {
  const dir = dirname(sessionPath);
  const id = basename(sessionPath).replace(/\.jsonl$/i, '');
  return [
    ...legacyAgentNames(dir).map((n) => join(dir, n)),
    ...safeList(join(dir, id, 'subagents')).filter((n) => /\.jsonl$/i.test(n)).map((n) => join(dir, id, 'subagents', n)),
  ];
}
