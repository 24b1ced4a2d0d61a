import { closeSync, existsSync, openSync, readSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

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

export interface SessionFileRef {
  sessionId: string;
  path: string;
  projectDir: string;
  root: string;
}

const SESSION_FILE = /^[^.].*\.jsonl$/i;

/** Every session file under the given projects roots (subagent files excluded). */
export function listSessionFiles(roots: readonly string[]): SessionFileRef[] {
  const out: SessionFileRef[] = [];
  for (const root of roots) {
    let projects: string[];
    try {
      projects = readdirSync(root);
    } catch {
      continue;
    }
    for (const project of projects) {
      const projectDir = join(root, project);
      let entries: string[];
      try {
        entries = readdirSync(projectDir);
      } catch {
        continue;
      }
      for (const name of entries) {
        if (!SESSION_FILE.test(name) || name.startsWith('agent-')) continue;
        out.push({ sessionId: name.slice(0, -'.jsonl'.length), path: join(projectDir, name), projectDir, root });
      }
    }
  }
  return out;
}

/** Finds a session file by id (or by an unambiguous id prefix of at least 6 characters). */
export function findSessionById(id: string, roots: readonly string[]): { found: SessionFileRef[] } {
  const all = listSessionFiles(roots);
  const exact = all.filter((s) => s.sessionId === id);
  if (exact.length > 0) return { found: exact };
  if (id.length >= 6) return { found: all.filter((s) => s.sessionId.startsWith(id)) };
  return { found: [] };
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
  for (const name of safeList(dirname(sessionPath))) {
    const m = /^agent-(.+)\.jsonl$/.exec(name);
    if (!m || !m[1]) continue;
    const path = join(dirname(sessionPath), name);
    if (firstSessionId(path) === sessionId) out.push({ agentId: m[1], path });
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

function firstSessionId(path: string): string | null {
  try {
    const fd = openSync(path, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    closeSync(fd);
    const m = /"sessionId"\s*:\s*"([^"]+)"/.exec(buf.toString('utf8', 0, n));
    return m?.[1] ?? null;
  } catch {
    return null;
  }
}
