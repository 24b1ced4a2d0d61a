import type { Source, ToolOp } from '@glassbox/core';
import { SHELL_TOOLS, callArguments, localShellArgs, shellCommandOf } from './command';
import { sha256 } from './hash';
import { str, type JsonObject } from './json';
import { parsePatch } from './patch';
import { joinPath, relativeLabel } from './paths';
import { matchPureRead, type ReadSpec } from './read-grammar';
import { oneLine } from './squeeze';

export interface CallShape {
  name: string;
  op: ToolOp;
  source: Source;
  /** Set when the command fits the pure-read grammar: the output decides whether it is a read. */
  readSpec?: ReadSpec;
  /** The folder relative paths of the command are resolved against. */
  workdir: string | null;
}

function clip(text: string, max: number): string {
  return oneLine(text, max);
}

/**
 * What a call item is, from the item alone: a shell command (maybe a read candidate), a patch, an
 * MCP tool, a web search or another tool. Patches are never evictable (their input is sent again
 * on resume and a fork never shortens inputs), so their ops carry no removable bytes.
 */
export function shapeOfCall(item: JsonObject, cwd: string | null): CallShape {
  const type = str(item['type']);
  if (type === 'local_shell_call') return shellShape('local_shell', localShellArgs(item), cwd);
  if (type === 'web_search_call') {
    const action = item['action'];
    const query = typeof action === 'object' && action !== null && !Array.isArray(action) ? (str(action['query']) ?? str(action['url']) ?? '') : '';
    return { name: 'web_search', op: { kind: 'fetch', url: query }, source: { type: 'url', label: clip(query || 'web search', 80) }, workdir: cwd };
  }
  const name = str(item['name']) ?? type ?? 'tool';
  if (type === 'custom_tool_call') {
    if (name === 'apply_patch') return patchShape(str(item['input']) ?? '', cwd);
    return other(name, cwd);
  }
  const args = callArguments(item);
  if (SHELL_TOOLS.has(name)) {
    const command = args ? args['command'] : undefined;
    if (Array.isArray(command) && command[0] === 'apply_patch' && typeof command[1] === 'string') return patchShape(command[1], cwd);
    return shellShape(name, args, cwd);
  }
  if (name === 'apply_patch') return patchShape(str(args?.['input']) ?? str(args?.['patch']) ?? '', cwd);
  if (name === 'write_stdin') {
    const chars = str(args?.['chars']) ?? '';
    return { name, op: { kind: 'command', command: `write_stdin ${chars}` }, source: { type: 'command', label: clip(`(stdin) ${chars}`, 80) }, workdir: cwd };
  }
  const namespace = str(item['namespace']);
  if (namespace) return mcp(name, namespace, name, cwd);
  if (name.startsWith('mcp__')) {
    const [, server = '', ...rest] = name.split('__');
    return mcp(name, server, rest.join('__'), cwd);
  }
  if (name.includes('__')) {
    const [server = '', ...rest] = name.split('__');
    return mcp(name, server, rest.join('__'), cwd);
  }
  return other(name, cwd);
}

function shellShape(name: string, args: JsonObject | null, cwd: string | null): CallShape {
  const cmd = shellCommandOf(name, args);
  const workdir = cmd?.workdir ? joinPath(cwd, cmd.workdir) : cwd;
  if (!cmd) return { name, op: { kind: 'command', command: name }, source: { type: 'command', label: name }, workdir };
  const shape: CallShape = {
    name,
    op: { kind: 'command', command: cmd.script },
    source: { type: 'command', label: clip(cmd.script, 80) },
    workdir,
  };
  const spec = cmd.exact ? matchPureRead(cmd.script) : null;
  if (spec) shape.readSpec = spec;
  return shape;
}

function patchShape(input: string, cwd: string | null): CallShape {
  const files = parsePatch(input);
  const name = 'apply_patch';
  if (!files || files.length === 0) return { name, op: { kind: 'other', name }, source: { type: 'tool', label: name }, workdir: cwd };
  const labels = files.map((f) => relativeLabel(joinPath(cwd, f.path) ?? f.path, cwd));
  if (files.length > 1) {
    return { name, op: { kind: 'other', name }, source: { type: 'file', label: clip(`apply_patch ${labels.join(', ')}`, 80) }, workdir: cwd };
  }
  const f = files[0] as (typeof files)[number];
  const path = joinPath(cwd, f.path);
  if (path === null) return { name, op: { kind: 'other', name }, source: { type: 'file', label: f.path }, workdir: cwd };
  const source: Source = { type: 'file', label: labels[0] ?? f.path, path };
  if (f.type === 'add' && f.content !== undefined && f.movedTo === undefined) {
    return { name, op: { kind: 'write', path, contentHash: sha256(f.content), contentBytes: 0 }, source, workdir: cwd };
  }
  return { name, op: { kind: 'edit', path, heavyBytes: 0 }, source, workdir: cwd };
}

function mcp(name: string, server: string, tool: string, cwd: string | null): CallShape {
  return { name, op: { kind: 'mcp', server, tool }, source: { type: 'mcp', label: `${server}/${tool}` }, workdir: cwd };
}

function other(name: string, cwd: string | null): CallShape {
  return { name, op: { kind: 'other', name }, source: { type: 'tool', label: name }, workdir: cwd };
}
