import { str, type JsonObject, type Source, type ToolOp } from '@glassbox/core';
import { sha256Hex } from './hash';
import { preview } from './parts';

/** What a call did, before its result is known. */
export interface CallShape {
  op: ToolOp;
  source: Source;
}

/**
 * Gemini CLI's built-in tools (docs/gemini/format.md, "Tools"), in agent-neutral terms. The arguments a
 * call carries are sent again on every request, and a fork only shortens results: writes and edits
 * carry no removable bytes. Read results become read ops once the output says what they captured.
 */
const SUBAGENT_TOOLS = new Set(['invoke_agent', 'codebase_investigator', 'generalist', 'cli_help', 'delegate_to_agent']);
const SEARCH_TOOLS = new Set(['grep_search', 'search_file_content', 'glob', 'list_directory', 'google_web_search']);

export function shapeOfCall(name: string, args: JsonObject, cwd: string | null): CallShape {
  const label = (text: string) => preview(text).slice(0, 80);
  if (name === 'read_file') {
    const path = absolute(str(args['file_path']) ?? str(args['absolute_path']) ?? str(args['path']) ?? '', cwd);
    return { op: { kind: 'read', path, startLine: 1, numLines: 0, totalLines: null, full: false, unchanged: false, truncated: false }, source: fileSource(path, cwd) };
  }
  if (name === 'write_file') {
    const path = absolute(str(args['file_path']) ?? str(args['path']) ?? '', cwd);
    const content = str(args['content']) ?? '';
    return { op: { kind: 'write', path, contentHash: sha256Hex(content), contentBytes: 0 }, source: fileSource(path, cwd) };
  }
  if (name === 'replace' || name === 'edit') {
    const path = absolute(str(args['file_path']) ?? str(args['path']) ?? '', cwd);
    return { op: { kind: 'edit', path, heavyBytes: 0 }, source: fileSource(path, cwd) };
  }
  if (name === 'run_shell_command') {
    const command = str(args['command']) ?? '';
    return { op: { kind: 'command', command }, source: { type: 'command', label: label(command) } };
  }
  if (name === 'web_fetch') {
    const url = str(args['url']) ?? str(args['prompt']) ?? '';
    return { op: { kind: 'fetch', url }, source: { type: 'url', label: label(url) } };
  }
  if (SEARCH_TOOLS.has(name)) {
    const pattern = str(args['pattern']) ?? str(args['query']) ?? str(args['dir_path']) ?? str(args['path']) ?? '';
    return { op: { kind: 'search', pattern }, source: { type: 'search', label: label(`${name} ${pattern}`) } };
  }
  if (SUBAGENT_TOOLS.has(name)) {
    const agent = str(args['agent_name']) ?? name;
    const prompt = str(args['prompt']) ?? str(args['objective']) ?? str(args['request']) ?? str(args['question']) ?? '';
    return { op: { kind: 'subagent', description: agent, promptStart: prompt.slice(0, 80) }, source: { type: 'subagent', label: label(`${agent}: ${prompt}`) } };
  }
  if (name.includes('__')) {
    const [server = '', ...rest] = name.split('__');
    return { op: { kind: 'mcp', server, tool: rest.join('__') }, source: { type: 'mcp', label: `${server}/${rest.join('__')}` } };
  }
  return { op: { kind: 'other', name }, source: { type: 'tool', label: name } };
}

function absolute(p: string, cwd: string | null): string {
  if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || cwd === null) return p;
  return `${cwd.replace(/\/+$/, '')}/${p}`;
}

function fileSource(path: string, cwd: string | null): Source {
  const root = cwd ? `${cwd.replace(/\/+$/, '')}/` : null;
  const label = root && path.startsWith(root) ? path.slice(root.length) : path;
  return { type: 'file', label, path };
}
