import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseElided } from '@glassbox/core';
import { runCli } from './cli-test-io';

const REPO = resolve(import.meta.dirname, '../../../..');
const CORPUS = join(REPO, 'fixtures/corpus/generated');
const BIN = join(REPO, 'apps/cli/bin/glassbox.mjs');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const sha = (t: string): string => createHash('sha256').update(t, 'utf8').digest('hex');

/** A Claude config folder with a writable copy of corpus sessions, and a data folder of its own. */
function install(names: string[]): { env: NodeJS.ProcessEnv; root: string; ids: string[]; paths: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'glassbox-mcp-'));
  roots.push(root);
  const ids: string[] = [];
  const paths: string[] = [];
  for (const name of names) {
    const projectDir = join(root, 'config', 'projects', `-tmp-${name}`);
    mkdirSync(join(root, 'config', 'projects'), { recursive: true });
    cpSync(join(CORPUS, name, 'claude-project'), projectDir, { recursive: true });
    const fix = (p: string): void => {
      const dir = statSync(p).isDirectory();
      chmodSync(p, dir ? 0o755 : 0o644);
      if (dir) for (const n of readdirSync(p)) fix(join(p, n));
    };
    fix(projectDir);
    const id = (JSON.parse(readFileSync(join(CORPUS, name, 'manifest.json'), 'utf8')) as { session_ids: string[] }).session_ids[0] as string;
    ids.push(id);
    paths.push(join(projectDir, `${id}.jsonl`));
  }
  return { env: { CLAUDE_CONFIG_DIR: join(root, 'config'), GLASSBOX_DATA_DIR: join(root, 'data') }, root, ids, paths };
}

/** Runs `glassbox mcp` as a client would: a child process spoken to over stdin/stdout, one JSON line each way. */
async function converse(args: string[], env: NodeJS.ProcessEnv, requests: (object | string)[]): Promise<{ replies: Record<string, unknown>[]; code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { env: { ...process.env, ...env, CODEX_HOME: '/nonexistent' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdin.end(requests.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { replies: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>), code, stderr };
}

const call = (id: number, name: string, args: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('glassbox mcp (stdio, read-only)', () => {
  const s = install(['03-large-outputs', '01-superseded-reads']);
  const [id03, id01] = s.ids as [string, string];

  it('recalls exactly an elided middle, pages it, searches refs and lines, and names every bad request', { timeout: 120_000 }, async () => {
    const forked = await runCli(['clean', id03, '--classes', 'elided', '--elide-over', '500', '--elide-keep', '600', '--protect', '0', '--min-savings', '0', '--fork', '--json'], s.env);
    expect(forked.code, forked.err).toBe(0);
    const doc = JSON.parse(forked.out) as { forkId: string; applied: { elision?: { sha256: string }; tombstone: string; toolUseId?: string }[]; mcp: { claude: string; codex: string } };
    expect(doc.mcp.claude).toBe(`claude mcp add glassbox-recall -- glassbox mcp ${doc.forkId} --send-content-to-model-provider`);
    expect(doc.mcp.codex).toContain('codex mcp add glassbox-recall -- glassbox mcp');
    // One that comes back in one page (pages stop at 24,000 characters), and the largest, which pages.
    const withElision = doc.applied.filter((a) => a.elision) as { elision: { sha256: string; bytes: number }; tombstone: string; toolUseId: string }[];
    const elided = withElision.filter((a) => a.elision.bytes <= 24_000).sort((a, b) => b.elision.bytes - a.elision.bytes)[0] as (typeof withElision)[number];
    const largest = withElision.sort((a, b) => b.elision.bytes - a.elision.bytes)[0] as (typeof withElision)[number];
    expect(largest.elision.bytes).toBeGreaterThan(24_000);
    const bigRef = parseElided(largest.tombstone)[0]?.marker.sha256Prefix as string;
    const ref = parseElided(elided.tombstone)[0]?.marker.sha256Prefix as string;
    // A second session's fork in the same archive: its payloads are never this session's to recall.
    const other = await runCli(['clean', id01, '--repo', join(CORPUS, '01-superseded-reads', 'project-after'), '--fork', '--json'], s.env);
    expect(other.code, other.err).toBe(0);
    const otherRef = (JSON.parse(other.out) as { applied: { removed: { sha256: string }[] }[] }).applied[0]?.removed[0]?.sha256.slice(0, 12) as string;

    const { replies, code } = await converse([doc.forkId, '--send-content-to-model-provider'], s.env, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      call(3, 'recall', { ref, limit: 2000 }),
      call(4, 'recall', { ref, offset: 1, limit: 2 }),
      call(5, 'recall', { ref: elided.toolUseId, limit: 2000 }),
      call(6, 'recall', { ref: 'deadbeef0000' }),
      call(7, 'recall', { ref: otherRef }),
      call(8, 'recall', { ref, offset: 1_000_000 }),
      call(9, 'search', { query: 'no such text anywhere 12345' }),
      call(11, 'recall', { ref: bigRef, limit: 2000 }),
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'write_file', arguments: {} } },
      'not json',
    ]);
    expect(code).toBe(0);
    const byId = new Map(replies.map((r) => [r['id'], r]));
    const result = (n: number) => byId.get(n)?.['result'] as { content: { text: string }[]; isError?: boolean };
    expect((byId.get(1)?.['result'] as { protocolVersion: string }).protocolVersion).toBe('2025-06-18');
    expect(replies.some((r) => r['id'] === undefined)).toBe(false);
    expect((byId.get(2)?.['result'] as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual(['recall', 'search']);
    const whole = result(3).content[0]?.text as string;
    // A whole recall is one block: exactly the archived bytes.
    expect(result(3).content).toHaveLength(1);
    expect(sha(whole)).toBe(elided.elision.sha256);
    expect(result(4).content[1]?.text).toMatch(/lines 2-3 of \d+; the rest from offset 3/);
    expect(whole.split(/(?<=\n)/).slice(1, 3).join('')).toBe(result(4).content[0]?.text);
    expect(sha(result(5).content[0]?.text as string)).toBe(elided.elision.sha256);
    expect(result(6)).toMatchObject({ isError: true });
    expect(result(6).content[0]?.text).toMatch(/^unknown_ref/);
    expect(result(7).content[0]?.text).toMatch(/^unknown_ref/);
    expect(result(8).content[0]?.text).toMatch(/^past_end/);
    expect(result(9).content[0]?.text).toMatch(/^no archived payload/);
    expect((byId.get(10)?.['error'] as { code: number }).code).toBe(-32602);
    // A payload larger than a page: the page is whole lines under the budget, and says where the rest starts.
    const big = result(11).content;
    expect(big[0]?.text.length).toBeLessThanOrEqual(24_000);
    expect(big[0]?.text.endsWith('\n')).toBe(true);
    expect(big[1]?.text).toMatch(/the rest from offset \d+/);
    expect((byId.get(null)?.['error'] as { code: number }).code).toBe(-32700);

    // search gives refs and line numbers only: a line of the middle is found, its text is not returned.
    const needle = whole.split('\n').find((l) => l.trim().length > 12) as string;
    const searched = await converse([doc.forkId], s.env, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, call(2, 'search', { query: needle }), call(3, 'recall', { ref })]);
    const listed = (searched.replies[0]?.['result'] as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(listed).toEqual(['search']);
    const found = searched.replies[1]?.['result'] as { content: { text: string }[] };
    expect(found.content[0]?.text).toMatch(new RegExp(`^${ref} \\(elided, [^)]*\\): lines? \\d+`, 'm'));
    expect(found.content[0]?.text).not.toContain(needle);
    // Without the content flag there is no recall tool at all.
    expect((searched.replies[2]?.['error'] as { code: number }).code).toBe(-32602);

    // A damaged archive object is an error, never served.
    const object = join(s.root, 'data', 'archive', 'objects', elided.elision.sha256.slice(0, 2), elided.elision.sha256);
    chmodSync(object, 0o600);
    writeFileSync(object, 'tampered');
    const damaged = await converse([doc.forkId, '--send-content-to-model-provider'], s.env, [call(1, 'recall', { ref })]);
    const hurt = damaged.replies[0]?.['result'] as { content: { text: string }[]; isError: boolean };
    expect(hurt.isError).toBe(true);
    expect(hurt.content[0]?.text).toMatch(/^damaged/);
    expect(hurt.content[0]?.text).not.toContain('tampered');
  });

  it('refuses to start with recall asked for but no content flag', () => {
    const r = spawnSync(process.execPath, [BIN, 'mcp', 'some-session', '--tools', 'recall'], { env: { ...process.env, ...s.env }, input: '', encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--send-content-to-model-provider');
  });
});
