import { basename, dirname, join } from 'node:path';
import { scanLines } from '@glassbox/file-io';
import type { SessionSideFiles } from '@glassbox/core';
import { isSessionUuid } from './names';

/** The folder names a fork's manifest files its carried files under (the first segment of their `rel`). */
const SUBAGENT_CHATS = 'chats';
const TOOL_OUTPUTS = 'tool-outputs';

/** `<project folder>` of a main chat at `<project folder>/chats/<name>`. */
function projectFolderOf(sessionPath: string): string {
  return dirname(dirname(sessionPath));
}

/**
 * A session's own folders in its project folder (docs/gemini/format.md, "Where sessions live"):
 * `chats/<id>/` (its subagents' chats, 0.38+) and `tool-outputs/session-<id>/` (the full text of
 * outputs the client cut or masked, 0.38+). The client deletes both with the session. Only a chat
 * in a `chats/` folder under a UUID has them.
 */
function folders(sessionPath: string, sessionId: string): { name: string; path: string }[] {
  if (basename(dirname(sessionPath)) !== 'chats' || !isSessionUuid(sessionId)) return [];
  const project = projectFolderOf(sessionPath);
  return [
    { name: SUBAGENT_CHATS, path: join(project, 'chats', sessionId) },
    { name: TOOL_OUTPUTS, path: join(project, 'tool-outputs', `session-${sessionId}`) },
  ];
}

/** A path into a session's tool-output folder as the chat's text names it (either separator, JSON-escaped or not). */
function toolOutputNeedle(sessionId: string): RegExp {
  const id = sessionId.replace(/[^0-9a-zA-Z-]/g, '');
  return new RegExp(`tool-outputs(?:/|\\\\{1,2})session-${id}(?:/|\\\\{1,2})([A-Za-z0-9_.-]{1,255})`, 'g');
}

/**
 * The tool-output files the chat names (a masked output's preview and a cut output's notice point at
 * the full text): resolved against the chat's own project folder, not the absolute path recorded,
 * which may be another machine's.
 */
function referenced(sessionPath: string, sessionId: string): string[] {
  const dirs = folders(sessionPath, sessionId);
  const outputs = dirs.find((d) => d.name === TOOL_OUTPUTS);
  if (!outputs) return [];
  const needle = toolOutputNeedle(sessionId);
  const names = new Set<string>();
  scanLines(sessionPath, (text) => {
    if (!text.includes('tool-outputs')) return;
    for (const m of text.matchAll(needle)) names.add(m[1] as string);
  });
  return [...names].sort().map((n) => join(outputs.path, n));
}

export const geminiSideFiles: SessionSideFiles = { folders, referenced };
