#!/usr/bin/env node
// Builds the CLI into plain JavaScript (apps/cli/dist), so `glassbox` starts on Node alone instead of
// through the TypeScript loader, which holds tens of MB of compiler and source maps before the CLI reads
// a byte. The workspace's own packages are bundled; every other package stays external (better-sqlite3
// is native, the rest is loaded as installed). The bundle is built for this checkout: each module's
// `import.meta.url` keeps naming its source file, so the paths it resolves (worker entries, fixtures,
// the renderer's build) stay where they are. Run by `npm ci` (prepare) and `npm run build:cli`.
import { createRequire } from 'node:module';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// tsx's compiler, already installed with the CLI's dependencies (as the store's worker bundling uses it).
const { build } = createRequire(import.meta.url)('esbuild');

const CLI = resolve(import.meta.dirname, '..');
const REPO = resolve(CLI, '../..');
// `--out <dir>` builds elsewhere (the tests); `--if-possible` (npm's prepare) warns instead of failing,
// and the launcher then runs the sources.
const args = process.argv.slice(2);
const OUT = args.includes('--out') ? resolve(args[args.indexOf('--out') + 1] ?? '') : join(CLI, 'dist');
const TMP = `${OUT}.tmp-${process.pid}`;

/** Third-party packages stay imports; only the workspace's `@glassbox/*` packages and relative files are bundled. */
const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@glassbox/') ? undefined : { path: args.path, external: true }));
  },
};

/** Each module's import.meta.url (and dirname/filename) stays its source file's, as under the loader. */
const sourceMeta = {
  name: 'source-meta',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      if (args.path.includes('/node_modules/') && !args.path.startsWith(REPO)) return undefined;
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('ts') ? 'ts' : 'js', resolveDir: dirname(args.path) };
    });
  },
};

rmSync(TMP, { recursive: true, force: true });
let result;
try {
  result = await build({
  entryPoints: { main: join(CLI, 'src/main.ts') },
  absWorkingDir: REPO,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outdir: TMP,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies (none expected) would need require.
  banner: { js: "import { createRequire as __gbRequire } from 'node:module'; const require = __gbRequire(import.meta.url);" },
  plugins: [externals, sourceMeta],
  });
} catch (error) {
  rmSync(TMP, { recursive: true, force: true });
  if (!args.includes('--if-possible')) throw error;
  console.warn(`glassbox: the CLI bundle was not built (${error instanceof Error ? error.message : String(error)}); the CLI runs from its sources`);
  process.exit(0);
}
// The sources it was built from, so the launcher can tell a stale bundle from a fresh one.
const inputs = Object.keys(result.metafile.inputs).map((p) => relative(OUT, resolve(REPO, p)));
writeFileSync(join(TMP, 'inputs.json'), JSON.stringify({ builtAt: Date.now(), inputs }) + '\n');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(dirname(OUT), { recursive: true });
renameSync(TMP, OUT);
