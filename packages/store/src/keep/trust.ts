import { lstatSync, realpathSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { AgentRegistry } from '@glassbox/core';
import type { KeptManifest } from './manifest';

/**
 * Why a kept manifest must not be restored here, or null. A manifest can come from a copied or crafted
 * archive, and restore writes where it says, so every field is taken as hostile: the agent must be one
 * Glassbox reads, the session id must have the shape that agent's ids have (it is printed in a resume
 * command), the original path must be a session file of that agent inside one of its session folders
 * on this machine (`roots`: `~/.claude/projects`, `CODEX_HOME/sessions`, …) and name that id, and the
 * configuration folder and project must be the ones that path gives. Returns the root it lies in too.
 */
export function untrustedManifest(m: KeptManifest, agents: AgentRegistry, roots: readonly string[]): { problem: string } | { root: string } {
  if (!agents.has(m.agent)) return { problem: `it was kept for the agent "${m.agent}", which this Glassbox does not read` };
  const agent = agents.byId(m.agent);
  if (!agent.format.sessionIdPattern.test(m.sessionId)) return { problem: `its session id is not a ${agent.format.label} session id` };
  const path = m.original.path;
  const root = roots.map((r) => resolve(r)).find((r) => path.startsWith(r + sep));
  if (!root) return { problem: `${path} is not in a ${agent.format.label} session folder of this machine (${roots.join(', ') || 'none'})` };
  const described = agent.locator.describe(path);
  if (described.kind !== 'session' || (described.sessionId !== '' && described.sessionId !== m.sessionId)) {
    return { problem: `${path} is not the ${agent.format.label} session file of ${m.sessionId}` };
  }
  const config = agent.locator.retention?.configFolderOf(path) ?? null;
  if (m.original.configFolder !== config) return { problem: `its configuration folder ${String(m.original.configFolder)} is not the one ${path} lies in` };
  if (!/^[^/\\\0]{1,255}$/.test(m.original.project) || m.original.project === '.' || m.original.project === '..') return { problem: 'its project name is not a plain name' };
  return { root };
}

/**
 * The first link (or file where a folder should be) on the way from `root` to `path`, or null. The
 * root itself may be reached through a link (a `~/.claude` kept elsewhere); below it nothing may be one:
 * a link planted at `<project>/<id>` would have restore write side files wherever it points.
 */
export function linkOnTheWay(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..')) return path;
  let at = root;
  const parts = rel.split(sep);
  for (let i = 0; i < parts.length; i++) {
    at = `${at}${sep}${parts[i] as string}`;
    let st;
    try {
      st = lstatSync(at);
    } catch {
      return null;
    }
    if (st.isSymbolicLink()) return at;
    if (i < parts.length - 1 && !st.isDirectory()) return at;
  }
  return null;
}

/** A file written under `root` is where its path says: its folder's real path is the root's real path and the rest, no link between. */
export function landedInPlace(root: string, path: string): boolean {
  try {
    return realpathSync(dirname(path)) === resolve(realpathSync(root), relative(root, dirname(path)));
  } catch {
    return false;
  }
}
