import { RECALL_DEFAULT_LINES, RECALL_MAX_LINES, RecallError, type SessionRecall } from '@glassbox/engine';
import { InvalidParams, type ToolResult, type ToolServer, type ToolSpec } from './protocol';

/**
 * The tools of `glassbox mcp`, read-only over one session's archive: `search` (refs and line numbers,
 * never text) always; `recall` (the text) only when the server was started with the flag that says
 * transcript text goes to the model provider.
 */
export function recallServer(recall: SessionRecall, options: { sendContent: boolean; version: string }): ToolServer {
  const tools: ToolSpec[] = [
    {
      name: 'search',
      description:
        "Find a literal text in what Glassbox removed from this session's context (elided middles of long tool results, tombstoned payloads). Returns refs and line numbers, never the text itself; read it with recall.",
      inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'the exact text to look for (case-sensitive)' } }, required: ['query'], additionalProperties: false },
    },
  ];
  if (options.sendContent) {
    tools.push({
      name: 'recall',
      description:
        'Read back, verbatim and hash-checked, what Glassbox removed from this session: the middle of an elided tool result (the ref in its "[… elided by glassbox — recall <ref> …]" marker) or a tombstoned payload (the sha256 in its tombstone), or by tool_use id. Paged by lines.',
      inputSchema: {
        type: 'object',
        properties: {
          ref: { type: 'string', description: 'the hash prefix from a marker or tombstone, or a tool_use id' },
          offset: { type: 'integer', minimum: 0, description: 'first line to return, from 0 (default 0)' },
          limit: { type: 'integer', minimum: 1, maximum: RECALL_MAX_LINES, description: `lines to return (default ${RECALL_DEFAULT_LINES})` },
        },
        required: ['ref'],
        additionalProperties: false,
      },
    });
  }
  return {
    name: 'glassbox',
    version: options.version,
    tools: () => tools,
    call(name, args) {
      try {
        return name === 'search' ? search(recall, args) : recallPage(recall, args);
      } catch (e) {
        if (e instanceof RecallError) return failure(`${e.code}: ${e.message}`);
        throw e;
      }
    },
  };
}

function search(recall: SessionRecall, args: Record<string, unknown>): ToolResult {
  const query = args['query'];
  if (typeof query !== 'string') throw new InvalidParams('search needs a query (a string)');
  const hits = recall.search(query);
  const results = hits.map((h) => ({ ref: h.entry.ref, kind: h.entry.kind, toolUseId: h.entry.toolUseId, tool: h.entry.toolName, lines: h.lines, moreLines: h.more }));
  const text =
    results.length === 0
      ? `no archived payload of this session contains ${JSON.stringify(query)} (${recall.entries.length} archived)`
      : results.map((r) => `${r.ref} (${r.kind}, ${r.tool}${r.toolUseId ? ` ${r.toolUseId}` : ''}): line${r.lines.length > 1 ? 's' : ''} ${r.lines.join(', ')}${r.moreLines > 0 ? ` and ${r.moreLines} more` : ''}`).join('\n');
  return { content: [{ type: 'text', text }] };
}

function recallPage(recall: SessionRecall, args: Record<string, unknown>): ToolResult {
  const ref = args['ref'];
  if (typeof ref !== 'string' || ref.trim() === '') throw new InvalidParams('recall needs a ref (a string)');
  const offset = args['offset'] ?? 0;
  const limit = args['limit'] ?? RECALL_DEFAULT_LINES;
  if (typeof offset !== 'number' || typeof limit !== 'number') throw new InvalidParams('offset and limit are whole numbers');
  const page = recall.recall(ref, offset, limit);
  const end = page.offset + page.lines;
  // The page is the first block, verbatim (a whole recall is exactly the archived bytes); where it
  // stands in the payload is a second block, only when it is not the whole. No structured content:
  // a client that has it sends it to the model instead of the text (Claude Code does).
  const content: ToolResult['content'] = [{ type: 'text', text: page.text }];
  if (page.offset > 0 || end < page.totalLines) {
    content.push({ type: 'text', text: `[glassbox recall ${page.entry.ref}: lines ${page.offset + 1}-${end} of ${page.totalLines}${end < page.totalLines ? `; the rest from offset ${end}` : ''}]` });
  }
  return { content };
}

function failure(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
