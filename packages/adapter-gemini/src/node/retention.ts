import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { earliestRule, type AgentRetention, type RetentionRule, type SessionLayout, type SessionPart } from '@glassbox/core';
import { sessionRetentionRule, type GeminiSettingsText } from '../retention';
import { describeChat } from './discover';
import { isMainChatName, isSessionUuid } from './names';

/** Where the client reads system settings (`getSystemSettingsPath`), unless GEMINI_CLI_SYSTEM_SETTINGS_PATH names a file. */
export function systemSettingsPath(env: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): string {
  const given = env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'];
  if (given) return given;
  if (platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

/** `system-defaults.json` beside the system settings, unless GEMINI_CLI_SYSTEM_DEFAULTS_PATH names a file. */
function systemDefaultsPath(env: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): string {
  return env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'] ?? join(dirname(systemSettingsPath(env, platform)), 'system-defaults.json');
}

/**
 * `<home>/.gemini` for a chat at `<home>/.gemini/tmp/<project>/chats/<main chat>` or one of its
 * subagent chats (`chats/<session id>/<file>`); null for a file anywhere else, which the client never cleans.
 */
export function geminiConfigFolderOf(sessionPath: string): string | null {
  const main = chatsFolderOf(sessionPath);
  if (!main) return null;
  const tmp = dirname(dirname(main));
  return basename(tmp) === 'tmp' && basename(dirname(tmp)) === '.gemini' ? dirname(tmp) : null;
}

/** The `chats/` folder a main chat or a subagent chat lies in (null: neither). */
function chatsFolderOf(sessionPath: string): string | null {
  const dir = dirname(sessionPath);
  if (basename(dir) === 'chats' && isMainChatName(basename(sessionPath))) return dir;
  if (isSessionUuid(basename(dir)) && basename(dirname(dir)) === 'chats') return dirname(dir);
  return null;
}

const SUBAGENT_CHATS = 'subagent-chats';
const TOOL_OUTPUTS = 'tool-outputs';
const ACTIVITY_LOG = 'activity-log';
const SESSION_FOLDER = 'session-folder';

/** What the client deletes with a session id (`deleteSessionArtifactsAsync`, `deleteSubagentSessionDirAndArtifactsAsync`), in the project folder. */
function partsFor(project: string, id: string): SessionPart[] {
  return [
    { name: SUBAGENT_CHATS, path: join(project, 'chats', id), kind: 'folder' },
    { name: TOOL_OUTPUTS, path: join(project, 'tool-outputs', `session-${id}`), kind: 'folder' },
    { name: ACTIVITY_LOG, path: join(project, 'logs', `session-${id}.jsonl`), kind: 'file' },
    { name: SESSION_FOLDER, path: join(project, id), kind: 'folder' },
  ];
}

/**
 * A main chat's session id and project folder; null for anything else. The name holds only the id's
 * first 8 characters: the id is the one given (a restore, before the chat is there again), else read
 * from the chat's head.
 */
function mainChatOf(sessionPath: string, sessionId?: string): { id: string; project: string } | null {
  const dir = dirname(sessionPath);
  if (basename(dir) !== 'chats' || !isMainChatName(basename(sessionPath))) return null;
  const id = sessionId ?? describeChat(sessionPath).sessionId;
  return isSessionUuid(id) ? { id, project: dirname(dir) } : null;
}

/**
 * Gemini CLI's clean-up (docs/gemini/format.md, "Side effects of a start"): the rule from the settings
 * the client reads when it starts in the session's project — system defaults, `<home>/.gemini/settings.json`,
 * the project's `.gemini/settings.json` (only in a trusted folder, so the earlier of the two rules is
 * given), system settings — and the files it deletes with a session. Settings files are read again
 * only when their size or modification time changes.
 */
export function geminiRetention(options: { env?: Readonly<Record<string, string | undefined>>; platform?: NodeJS.Platform } = {}): AgentRetention {
  const env = options.env ?? process.env;
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
  const file = (scope: GeminiSettingsText['scope'], path: string): GeminiSettingsText => ({ scope, file: path, text: read(path) });
  return {
    configFolderOf: geminiConfigFolderOf,
    ruleFor(sessionPath: string, cwd: string | null): RetentionRule {
      const config = geminiConfigFolderOf(sessionPath);
      if (!config) return { kind: 'never', decidedBy: 'the file is not in a Gemini CLI project folder (<home>/.gemini/tmp/<project>/chats/), which is all the client cleans', sources: [], warning: null };
      const common = [file('system-defaults', systemDefaultsPath(env, options.platform)), file('user', join(config, 'settings.json')), file('system', systemSettingsPath(env, options.platform))];
      const outside = sessionRetentionRule(common);
      // The client skips workspace settings in the home folder itself.
      if (!cwd || resolve(cwd) === resolve(homedir())) return outside;
      const inside = sessionRetentionRule([...common, file('workspace', join(cwd, '.gemini', 'settings.json'))]);
      return earliestRule([inside, outside]) ?? outside;
    },
    layoutOf(sessionPath: string): SessionLayout {
      const main = mainChatOf(sessionPath);
      return { parts: main ? partsFor(main.project, main.id) : [] };
    },
    placeOf(sessionPath: string, partName: string, sessionId?: string) {
      const main = mainChatOf(sessionPath, sessionId);
      const part = main ? partsFor(main.project, main.id).find((p) => p.name === partName) : undefined;
      return part ? { path: part.path, kind: part.kind } : null;
    },
  };
}
