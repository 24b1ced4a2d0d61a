/**
 * The Model Context Protocol's stdio transport, as much of it as a read-only tool server needs:
 * JSON-RPC 2.0 messages, one per line (UTF-8, no embedded newlines), `initialize`, `ping`,
 * `tools/list` and `tools/call`. Tool failures are results with `isError` (the model reads them);
 * malformed requests are JSON-RPC errors. Written here rather than taken from the SDK, whose package
 * brings HTTP servers and auth this server never uses.
 */

const PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
}

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

export interface ToolServer {
  name: string;
  version: string;
  tools(): ToolSpec[];
  /** A tool's answer; throw InvalidParams for arguments that do not fit its schema. */
  call(name: string, args: Record<string, unknown>): ToolResult;
}

export class InvalidParams extends Error {}

type Id = string | number | null;
type Reply = { jsonrpc: '2.0'; id: Id; result: unknown } | { jsonrpc: '2.0'; id: Id; error: { code: number; message: string } };

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One line in, at most one line out (notifications get none). */
function handleLine(server: ToolServer, line: string): string | null {
  if (line.trim() === '') return null;
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return JSON.stringify(error(null, PARSE_ERROR, 'the line is not JSON'));
  }
  if (!isObject(msg) || msg['jsonrpc'] !== '2.0' || typeof msg['method'] !== 'string') {
    // A response to us (we send no requests) or junk: junk with an id gets an answer.
    const id = isObject(msg) && (typeof msg['id'] === 'string' || typeof msg['id'] === 'number') ? msg['id'] : null;
    return isObject(msg) && ('result' in msg || 'error' in msg) ? null : JSON.stringify(error(id, INVALID_REQUEST, 'not a JSON-RPC 2.0 request'));
  }
  const hasId = 'id' in msg;
  const id = msg['id'] as Id;
  const reply = dispatch(server, msg['method'], isObject(msg['params']) ? msg['params'] : {}, id);
  return hasId ? JSON.stringify(reply) : null;
}

function dispatch(server: ToolServer, method: string, params: Record<string, unknown>, id: Id): Reply {
  try {
    switch (method) {
      case 'initialize': {
        const asked = params['protocolVersion'];
        const version = (PROTOCOL_VERSIONS as readonly unknown[]).includes(asked) ? (asked as string) : PROTOCOL_VERSIONS[0];
        return ok(id, { protocolVersion: version, capabilities: { tools: { listChanged: false } }, serverInfo: { name: server.name, version: server.version } });
      }
      case 'ping':
        return ok(id, {});
      case 'tools/list':
        return ok(id, { tools: server.tools() });
      case 'tools/call': {
        const name = params['name'];
        if (typeof name !== 'string') return error(id, INVALID_PARAMS, 'tools/call needs a tool name');
        if (!server.tools().some((t) => t.name === name)) return error(id, INVALID_PARAMS, `unknown tool ${JSON.stringify(name)}`);
        const args = params['arguments'] === undefined ? {} : params['arguments'];
        if (!isObject(args)) return error(id, INVALID_PARAMS, 'arguments must be an object');
        return ok(id, server.call(name, args));
      }
      default:
        if (method.startsWith('notifications/')) return ok(id, {});
        return error(id, METHOD_NOT_FOUND, `no method ${method}`);
    }
  } catch (e) {
    if (e instanceof InvalidParams) return error(id, INVALID_PARAMS, e.message);
    return error(id, INTERNAL_ERROR, e instanceof Error ? e.message : String(e));
  }
}

function ok(id: Id, result: unknown): Reply {
  return { jsonrpc: '2.0', id, result };
}

function error(id: Id, code: number, message: string): Reply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Reads requests from `input` line by line and writes each reply as one line to `write`. */
export function serveLines(server: ToolServer, input: NodeJS.ReadableStream, write: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let buffered = '';
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl).replace(/\r$/, '');
        buffered = buffered.slice(nl + 1);
        const out = handleLine(server, line);
        if (out !== null) write(out + '\n');
      }
    });
    input.on('end', () => {
      const out = handleLine(server, buffered);
      if (out !== null) write(out + '\n');
      resolve();
    });
  });
}
