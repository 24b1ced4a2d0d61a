import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { earliestRule, type AgentRetention, type RetentionRule, type SessionLayout, type SessionPart } from '@glassbox/core';
import { cleanupRule, type SettingsText } from '../retention/rule';
import { firstSessionId } from './legacy-agents';

/** Where the client reads managed policy settings on each platform (2.1.197). */
export function managedSettingsDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

/**
 * `<config>` for a session at `<config>/projects/<slug>/<id>.jsonl` (or a subagent file below it);
 * null for a file anywhere else, which the client never cleans.
 */
export function configFolderOf(sessionPath: string): string | null {
  let dir = dirname(sessionPath);
  for (let i = 0; i < 4; i++) {
    const up = dirname(dir);
    if (basename(up) === 'projects') return dirname(up);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

const SESSION_FOLDER = 'session-folder';
const FILE_HISTORY = 'file-history';
/** Legacy (1.x) subagent files sit beside their session: `beside/agent-<id>.jsonl`. */
const BESIDE = 'beside/';

function sessionIdOf(sessionPath: string): string | null {
  const id = basename(sessionPath).replace(/\.jsonl$/i, '');
  return id === '' || id === '.' || id === '..' || id === basename(sessionPath) ? null : id;
}

/**
 * Claude Code's clean-up (docs/claude-code/retention.md): the rule from the settings the client reads,
 * and the files it deletes with a session — `<project>/<id>/` (subagents, tool results, …),
 * `<config>/file-history/<id>/` (checkpoint backups) and legacy `agent-*.jsonl` files beside it.
 * Settings files are read again only when their size or modification time changes.
 */
export function claudeCodeRetention(options: { managedDir?: string } = {}): AgentRetention {
  const managed = options.managedDir ?? managedSettingsDir();
  const cache = new Map<string, { stamp: string; text: string | null }>();
  const read = (file: string): string | null => {
    let stamp: string;
    try {
      const st = statSync(file);
      if (!st.isFile()) return null;
      stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch {
      cache.delete(file);
      return null;
    }
    const hit = cache.get(file);
    if (hit && hit.stamp === stamp) return hit.text;
    let text: string | null;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = null;
    }
    cache.set(file, { stamp, text });
    return text;
  };
  const policyFiles = (): SettingsText[] => {
    const out: SettingsText[] = [{ scope: 'policy', file: join(managed, 'managed-settings.json'), text: null }];
    let dropIns: string[] = [];
    try {
      dropIns = readdirSync(join(managed, 'managed-settings.d')).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
    } catch {
      // No drop-in folder.
    }
    for (const n of dropIns) out.push({ scope: 'policy', file: join(managed, 'managed-settings.d', n), text: null });
    return out.map((f) => ({ ...f, text: read(f.file) }));
  };
  const userFile = (config: string): SettingsText => {
    const file = join(config, 'settings.json');
    return { scope: 'user', file, text: read(file) };
  };
  const projectFiles = (cwd: string): SettingsText[] =>
    (['project', 'local'] as const).map((scope) => {
      const file = join(cwd, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json');
      return { scope, file, text: read(file) };
    });

  return {
    configFolderOf,
    ruleFor(sessionPath: string, cwd: string | null): RetentionRule {
      const config = configFolderOf(sessionPath);
      if (!config) {
        return { kind: 'never', decidedBy: 'the file is not in a Claude Code configuration folder (<config>/projects/<project>/), which is all the client cleans', sources: [], warning: null };
      }
      const policy = policyFiles();
      const user = userFile(config);
      // The clean-up runs wherever the client is started, with that folder's project settings: in the
      // session's own project, or in any other. The earlier of the two is the date to plan for.
      const anywhere = cleanupRule([user, ...policy]);
      if (!cwd) return anywhere;
      const inProject = cleanupRule([user, ...projectFiles(cwd), ...policy]);
      const same = inProject.kind === anywhere.kind && (inProject.kind === 'never' || (anywhere.kind === 'deletes' && inProject.days === anywhere.days));
      if (same || earliestRule([inProject, anywhere]) === inProject) return inProject;
      const inside = inProject.kind === 'never' ? 'the clean-up is off' : `${inProject.days} days`;
      return { ...anywhere, decidedBy: `${anywhere.decidedBy}, when Claude Code runs outside ${cwd} (inside it: ${inside})` };
    },
    layoutOf(sessionPath: string): SessionLayout {
      const id = sessionIdOf(sessionPath);
      if (!id) return { parts: [] };
      const parts: SessionPart[] = [{ name: SESSION_FOLDER, path: join(dirname(sessionPath), id), kind: 'folder' }];
      const config = configFolderOf(sessionPath);
      if (config && basename(dirname(dirname(sessionPath))) === 'projects') parts.push({ name: FILE_HISTORY, path: join(config, 'file-history', id), kind: 'folder' });
      for (const name of legacySubagentFiles(sessionPath, id)) parts.push({ name: `${BESIDE}${name}`, path: join(dirname(sessionPath), name), kind: 'file' });
      return { parts };
    },
    placeOf(sessionPath: string, partName: string) {
      const id = sessionIdOf(sessionPath);
      if (!id) return null;
      if (partName === SESSION_FOLDER) return { path: join(dirname(sessionPath), id), kind: 'folder' };
      if (partName === FILE_HISTORY) {
        const config = configFolderOf(sessionPath);
        return config && basename(dirname(dirname(sessionPath))) === 'projects' ? { path: join(config, 'file-history', id), kind: 'folder' } : null;
      }
      if (partName.startsWith(BESIDE)) {
        const name = partName.slice(BESIDE.length);
        return /^agent-[A-Za-z0-9_-]{1,200}\.jsonl$/.test(name) ? { path: join(dirname(sessionPath), name), kind: 'file' } : null;
      }
      return null;
    },
  };
}

/** Legacy subagent files beside a session that name it in their first record (read from the head only). */
function legacySubagentFiles(sessionPath: string, id: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dirname(sessionPath)).filter((n) => /^agent-[A-Za-z0-9_-]{1,200}\.jsonl$/.test(n)).sort();
  } catch {
    return [];
  }
  return names.filter((n) => firstSessionId(join(dirname(sessionPath), n)) === id);
}
