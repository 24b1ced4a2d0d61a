import { resolve } from 'node:path';
import type { Command } from 'commander';
import { glassboxFor } from '../engine';
import { UsageError } from '../exit-codes';
import type { CliIO } from '../io';
import { serveLines } from '../mcp/protocol';
import { recallServer } from '../mcp/recall-server';
import { addArchiveOption } from '../fork-support';

interface McpFlags {
  archive?: string;
  sendContentToModelProvider?: boolean;
  tools?: string;
}

const CONTENT_FLAG = '--send-content-to-model-provider';

/**
 * `glassbox mcp <session>`: a read-only MCP server on stdio over one session's archive (docs/elision.md).
 * `search` answers with refs and line numbers; `recall` returns transcript text, which the client sends
 * on to its model provider, so it exists only with the flag that says so.
 */
export function registerMcp(program: Command, io: CliIO, input: NodeJS.ReadableStream = process.stdin): void {
  const cmd = program
    .command('mcp')
    .description("a read-only MCP server (stdio) over one session's archive: search and recall what its forks elided or tombstoned")
    .argument('<session>', 'the session id of the fork (as `clean --fork` printed it), or its file')
    .option(CONTENT_FLAG, 'offer `recall`, which returns archived transcript text to the client — and so to its model provider')
    .option('--tools <list>', 'the tools to offer (search, recall); default: search, and recall with the content flag');
  addArchiveOption(cmd).action(async (session: string, flags: McpFlags) => {
    const sendContent = flags.sendContentToModelProvider === true;
    const tools = flags.tools === undefined ? null : flags.tools.split(',').map((t) => t.trim()).filter(Boolean);
    for (const t of tools ?? []) if (t !== 'search' && t !== 'recall') throw new UsageError(`--tools: unknown tool "${t}" (known: search, recall)`);
    if (tools?.includes('recall') && !sendContent) {
      throw new UsageError(`recall returns transcript text, which the client sends to its model provider: start with ${CONTENT_FLAG} to allow it`);
    }
    const glassbox = glassboxFor(io, { archive: flags.archive });
    const id = sessionIdOf(session, glassbox.forks.lineage().byForkId);
    const recall = glassbox.forks.recall(id);
    if (recall.entries.length === 0) io.err(`glassbox mcp: no fork in the archive is session ${id}, or it removed nothing; search and recall will find nothing`);
    const server = recallServer(recall, { sendContent: sendContent && (tools === null || tools.includes('recall')), version: '0.1.0' });
    const write = io.raw ?? io.out;
    await serveLines(server, input, write);
  });
}

/** The fork's session id from an id or from its file's path (its manifest names the path). */
function sessionIdOf(arg: string, forks: ReadonlyMap<string, { forkPath: string }>): string {
  if (!arg.endsWith('.jsonl')) return arg;
  const path = resolve(arg);
  for (const [id, entry] of forks) if (entry.forkPath === path) return id;
  throw new UsageError(`${path} is not a fork in the archive (no manifest names it)`);
}
