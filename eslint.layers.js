// The layering of ARCHITECTURE.md as lint rules, one place: which element may import which. Imports are
// resolved to files (package names and relative paths alike), so `../../store/src/index/db` is the store too.
// eslint.layers.test.ts lints deliberate violations and fails if any goes unflagged.
import boundaries from 'eslint-plugin-boundaries';

/** Folders → element types. More specific folders first: the first match wins. */
export const ELEMENTS = [
  { type: 'adapter-node', pattern: 'packages/adapter-*/src/node', capture: ['adapter'] },
  { type: 'adapter', pattern: 'packages/adapter-*/src', capture: ['adapter'] },
  { type: 'request-dialect', pattern: 'packages/request-*/src', capture: ['dialect'] },
  { type: 'proxy', pattern: 'packages/proxy/src' },
  { type: 'file-io', pattern: 'packages/file-io/src' },
  { type: 'core', pattern: 'packages/core/src' },
  { type: 'analysis', pattern: 'packages/analysis/src' },
  // The index's worker thread entry: a composition point of its own (a thread gets no registry handed to it).
  { type: 'store-worker', pattern: 'packages/store/src/index/worker' },
  { type: 'store-shared', pattern: 'packages/store/src/shared' },
  { type: 'store-fork', pattern: 'packages/store/src/fork' },
  { type: 'store-keep', pattern: 'packages/store/src/keep' },
  { type: 'store', pattern: 'packages/store/src' },
  { type: 'engine', pattern: 'packages/engine/src' },
  { type: 'agents', pattern: 'packages/agents/src' },
  { type: 'contract', pattern: 'packages/contract/src' },
  { type: 'host', pattern: 'packages/host/src' },
  { type: 'renderer', pattern: 'packages/renderer/src' },
  { type: 'renderer-build', pattern: 'packages/renderer/node' },
  { type: 'cli', pattern: 'apps/cli/src' },
  { type: 'desktop-main', pattern: 'apps/desktop/src' },
].map((e) => ({ ...e, partialMatch: false }));

/** Who may import whom (besides itself). Everything else is refused. */
export const ALLOWED = {
  core: [],
  adapter: ['core'],
  'adapter-node': ['adapter', 'core', 'file-io'],
  'file-io': ['core'],
  analysis: ['core'],
  // A request dialect (the Messages API as the proxy reads it) is pure like an adapter: core only.
  'request-dialect': ['core'],
  proxy: ['core', 'analysis', 'store', 'store-shared', 'store-fork', 'request-dialect'],
  agents: ['adapter', 'adapter-node', 'core'],
  // The store by job, each folder with its own face: the session index (the package root), forks
  // (fork/), kept sessions (keep/), and what they share (shared/: atomic writes, private folders, the
  // Node ports, settings). It is handed its agents; only the index's worker entry builds them.
  store: ['core', 'analysis', 'file-io', 'store-shared', 'store-keep'],
  'store-worker': ['core', 'agents', 'store', 'store-shared'],
  'store-shared': ['core', 'analysis', 'file-io'],
  'store-fork': ['core', 'analysis', 'file-io', 'store-shared'],
  'store-keep': ['core', 'analysis', 'file-io', 'store-shared', 'store-fork'],
  // The one application layer: every use case, handed the agents and the ports by the shell that makes it.
  engine: ['core', 'analysis', 'file-io', 'store', 'store-shared', 'store-fork', 'store-keep'],
  contract: ['core'],
  // The shells reach forks and kept sessions only through the application layer.
  host: ['core', 'contract', 'analysis', 'store', 'store-shared', 'engine', 'agents', 'file-io', 'proxy'],
  renderer: ['core', 'contract'],
  'renderer-build': [],
  cli: ['core', 'contract', 'analysis', 'store', 'store-shared', 'engine', 'agents', 'host', 'renderer-build', 'file-io', 'proxy'],
  'desktop-main': ['core', 'contract', 'host', 'agents'],
};

const NODE_BUILTINS = [
  'node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'stream', 'stream/*',
  'url', 'util', 'worker_threads', 'zlib', 'readline', 'events', 'buffer', 'process', 'module', 'tty', 'assert',
];

export const layerConfigs = [
  {
    files: ['packages/*/src/**/*.{ts,tsx}', 'packages/*/node/**/*.ts', 'apps/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*.gate.ts', '**/test-support/**', '**/test-support.ts', '**/test-seed.ts', '**/test-corpus.ts', '**/recorded-snapshots.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/root-path': import.meta.dirname,
      'import/resolver': { typescript: { alwaysTryTypes: true, project: `${import.meta.dirname}/tsconfig.base.json` }, node: true },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            ...Object.entries(ALLOWED).map(([from, to]) => ({
              from: { element: { type: from } },
              allow: { to: { element: { types: { anyOf: [from, ...to] } } } },
            })),
            // An adapter knows only its own agent: never another adapter's package.
            {
              from: { element: { types: { anyOf: ['adapter', 'adapter-node'] } } },
              disallow: {
                to: { element: { types: { anyOf: ['adapter', 'adapter-node'] }, captured: { adapter: '!{{ from.element.captured.adapter }}' } } },
              },
            },
          ],
        },
      ],
    },
  },
];

export { NODE_BUILTINS };
