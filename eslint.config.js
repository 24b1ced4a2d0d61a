// Lint, and the layering of DESIGN.md as import rules: core and analysis import no Node API;
// only the desktop main process imports electron; the renderer imports types only from the engine.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const NODE_BUILTINS = [
  'node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'stream', 'stream/*',
  'url', 'util', 'worker_threads', 'zlib', 'readline', 'events', 'buffer', 'process', 'module', 'tty', 'assert',
];
const noElectron = { group: ['electron', 'electron/*'], message: 'Only the desktop main process and preload import electron.' };
const noNode = { group: NODE_BUILTINS, message: 'core and analysis do no I/O: take disk state through a port.' };
const noBetterSqlite = { group: ['better-sqlite3', 'chokidar'], message: 'Only packages/store touches SQLite and the file watcher.' };

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/out/**', '**/release/**', 'e2e/artifacts/**', '**/test-results/**',
      'fixtures/**', '**/*.d.ts', '.bench-tmp/**', '.test-results/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { patterns: [noElectron] }],
    },
  },
  {
    files: ['packages/core/src/**/*.ts', 'packages/analysis/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noNode, noElectron, noBetterSqlite,
      { group: ['@glassbox/store', '@glassbox/store/*', '@glassbox/adapter-claude-code/node'], message: 'analysis reaches the disk only through ports.' }] }] },
  },
  {
    files: ['packages/adapter-claude-code/src/**/*.ts'],
    ignores: ['packages/adapter-claude-code/src/node/**', '**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron, noBetterSqlite,
      { group: ['node:fs', 'node:fs/*', 'fs', 'fs/*', 'node:child_process', 'node:net', 'node:http'], message: 'The adapter main entry does no I/O; use the ./node sub-entry.' }] }] },
  },
  {
    files: ['packages/adapter-codex/src/**/*.ts'],
    ignores: ['packages/adapter-codex/src/node/**', '**/*.test.ts', '**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noNode, noElectron, noBetterSqlite,
      { group: ['@glassbox/adapter-claude-code', '@glassbox/adapter-claude-code/*', '@glassbox/store', '@glassbox/analysis'],
        message: 'The Codex adapter main entry runs anywhere and knows only core; disk access lives in ./node.' }] }] },
  },
  {
    files: ['apps/desktop/src/main/**/*.ts', 'apps/desktop/src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['packages/renderer/src/**/*.{ts,tsx}', 'packages/renderer/bench/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { patterns: [noNode, noElectron, noBetterSqlite,
      { group: ['@glassbox/store', '@glassbox/adapter-claude-code', '@glassbox/adapter-claude-code/*', '@glassbox/analysis'],
        message: 'The renderer talks to the host through the IPC contract; it imports types only from @glassbox/core.', allowTypeImports: true }] }] },
  },
);
