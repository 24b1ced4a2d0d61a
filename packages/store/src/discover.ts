import { readdirSync, type Dirent } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { projectRoots } from '@glassbox/adapter-claude-code/node';

/** A transcript file found under a projects root. */
export interface DiscoveredFile {
  path: string;
  root: string;
  /** The project folder's name (Claude Code's slug of the working directory). */
  project: string;
  kind: 'session' | 'subagent';
  /** For subagents: the session file they belong to (null until known, for legacy agent files). */
  parentPath: string | null;
  agentId: string | null;
  /** The session id the file name gives (subagents: the parent's). */
  sessionId: string;
}

export { projectRoots };

const JSONL = /\.jsonl$/i;

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
          out.push({ path, root, project: project.name, kind: 'subagent', parentPath: null, agentId: id.slice(6), sessionId: '' });
          continue;
        }
        out.push({ path, root, project: project.name, kind: 'session', parentPath: null, agentId: null, sessionId: id });
        if (!dirs.has(id)) continue;
        for (const s of listDir(join(projectDir, id, 'subagents'))) {
          const m = /^agent-(.+)\.jsonl$/i.exec(s.name);
          if (!m?.[1] || s.isDirectory()) continue;
          out.push({
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
    return { path, project: basename(dir), kind: 'subagent', parentPath: null, agentId: agent[1], sessionId: '' };
  }
  return { path, project: basename(dir), kind: 'session', parentPath: null, agentId: null, sessionId: id };
}

function listDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
