// Each test gets its own `glassbox ui` process, CLAUDE_CONFIG_DIR (seeded from the corpus copied into
// the repository) and data folder, all removed afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { buildLargeTranscript } from '../../../scripts/bench/synthetic';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const GENERATED = join(REPO_ROOT, 'fixtures/corpus/generated');
export const ARTIFACTS = join(REPO_ROOT, 'e2e/artifacts');
// Screenshots make their folder, writeFileSync does not: a clean clone has none yet.
mkdirSync(ARTIFACTS, { recursive: true });

export interface Scenario {
  name: string;
  sessionId: string;
  path: string;
  cwd: string;
  title: string;
}

export interface App {
  url: string;
  token: string;
  configDir: string;
  projectsDir: string;
  dataDir: string;
  scenarios: Record<string, Scenario>;
  /** Calls the host like the renderer does (for expectations computed by the engine itself). */
  invoke<T>(channel: string, args: unknown): Promise<T>;
}

interface Options {
  scenarios: string[];
  mapRepos: boolean;
  /** Offer the bundled sample sessions (the generated corpus) when there are none. */
  samples: boolean;
  /** A session of this many MB of the corpus's real records (ids renamed per copy) beside the first scenario's, before the app starts: indexing then takes seconds. */
  bigSessionMb: number;
  /** Also seed the Codex and Gemini CLI homes with one real session each from the corpus. */
  otherAgents: boolean;
}

export const test = base.extend<Options & { app: App }>({
  scenarios: [['01-superseded-reads', '02-gone-drift-errors', '05-autocompact'], { option: true }],
  mapRepos: [true, { option: true }],
  samples: [false, { option: true }],
  bigSessionMb: [0, { option: true }],
  otherAgents: [false, { option: true }],
  app: async ({ scenarios, mapRepos, samples, bigSessionMb, otherAgents, playwright }, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'glassbox-e2e-'));
    const configDir = join(dir, 'claude');
    const projectsDir = join(configDir, 'projects');
    const dataDir = join(dir, 'data');
    mkdirSync(projectsDir, { recursive: true });
    const seeded: Record<string, Scenario> = {};
    const repoArgs: string[] = [];
    for (const name of scenarios) {
      const m = JSON.parse(readFileSync(join(GENERATED, name, 'manifest.json'), 'utf8')) as { project_slug: string; session_ids: string[]; cwd: string; steps: { prompt: string }[] };
      const target = join(projectsDir, m.project_slug);
      cpSync(join(GENERATED, name, 'claude-project'), target, { recursive: true });
      const sessionId = m.session_ids[0] as string;
      seeded[name] = { name, sessionId, path: join(target, `${sessionId}.jsonl`), cwd: m.cwd, title: m.steps[0]?.prompt ?? '' };
      if (mapRepos) repoArgs.push('--repo', `${m.cwd}=${join(GENERATED, name, 'project-after')}`);
    }
    const first = Object.values(seeded)[0];
    if (bigSessionMb > 0 && first) {
      const sources = readdirSync(GENERATED)
        .filter((n) => /^\d\d-/.test(n))
        .sort()
        .map((n) => join(GENERATED, n, 'transcript.jsonl'));
      await buildLargeTranscript(sources, join(dirname(first.path), `${randomUUID()}.jsonl`), bigSessionMb * 1024 * 1024);
    }
    if (otherAgents) {
      const corpus = join(REPO_ROOT, 'fixtures/corpus');
      cpSync(join(corpus, 'codex/01-shell-reads-and-patch/sessions'), join(dir, 'codex/sessions'), { recursive: true });
      cpSync(join(corpus, 'gemini/01-reads-edits-gone/v0.61/gemini-tmp/inventory'), join(dir, 'gemini/.gemini/tmp/inventory'), { recursive: true });
    }
    const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/glassbox.mjs'), 'ui', '--no-open', ...repoArgs], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir, CODEX_HOME: join(dir, 'codex'), GEMINI_CLI_HOME: join(dir, 'gemini'), GLASSBOX_DATA_DIR: dataDir, GLASSBOX_SAMPLES_DIR: samples ? GENERATED : join(dir, 'no-samples') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`glassbox ui did not print its URL: ${stderr}`)), 30_000);
      createInterface({ input: child.stdout! }).once('line', (line) => {
        clearTimeout(timer);
        resolveUrl(line.trim());
      });
      child.once('exit', (code) => reject(new Error(`glassbox ui exited with ${code}: ${stderr}`)));
    });
    const token = new URL(url).searchParams.get('token') ?? '';
    const api = await playwright.request.newContext({ baseURL: new URL(url).origin, extraHTTPHeaders: { 'x-glassbox-token': token } });
    const app: App = {
      url,
      token,
      configDir,
      projectsDir,
      dataDir,
      scenarios: seeded,
      async invoke<T>(channel: string, args: unknown): Promise<T> {
        const res = await api.post(`/api/invoke/${channel}`, { data: args });
        const body = (await res.json()) as { ok: boolean; value: T; error?: { message: string } };
        if (!body.ok) throw new Error(`${channel}: ${body.error?.message}`);
        return body.value;
      },
    };
    await use(app);
    await api.dispose();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  },
});

export { expect };

/** Opens the app and waits for the seeded sessions to be listed. */
export async function openApp(page: Page, app: App): Promise<void> {
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(app.url);
  await expect(page.getByTestId('session-row')).toHaveCount(Object.keys(app.scenarios).length);
}

export function row(page: Page, s: Scenario) {
  return page.locator(`[data-testid=session-row][data-path="${s.path}"]`);
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Drops a file on the window the way a user does: a File in a DataTransfer, dragged onto the page. */
export async function dropFile(page: Page, name: string, text: string, type = 'application/octet-stream'): Promise<void> {
  const transfer = await page.evaluateHandle(
    ([n, t, ty]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, { type: ty }));
      return dt;
    },
    [name, text, type] as const,
  );
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('body', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
}
