// Lint, and the layering of ARCHITECTURE.md as import rules (see also eslint.layers.js): core and analysis import no Node API;
// only the desktop main process imports electron; the renderer imports types only from the engine.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { NODE_BUILTINS, layerConfigs } from './eslint.layers.js';

const noElectron = { group: ['electron', 'electron/*'], message: 'Only the desktop main process and preload import electron.' };
const noNode = { group: NODE_BUILTINS, message: 'core and analysis do no I/O: take disk state through a port.' };
const noBetterSqlite = { group: ['better-sqlite3', 'chokidar'], message: 'Only packages/store touches SQLite and the file watcher.' };
const noSqlite = { group: ['better-sqlite3'], message: 'Only packages/store touches SQLite.' };

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/out/**', '**/release/**', 'e2e/artifacts/**', '**/test-results/**',
      'fixtures/**', 'tools/**', '**/*.d.ts', '.bench-tmp/**', '.test-results/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...layerConfigs,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { patterns: [noElectron, noSqlite] }],
    },
  },
  {
    files: ['packages/core/src/**/*.ts', 'packages/analysis/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noNode, noElectron, noBetterSqlite,
      { group: ['@glassbox/store', '@glassbox/store/*', '@glassbox/adapter-claude-code/node'], message: 'analysis reaches the disk only through ports.' }] }] },
  },
  {
    // An adapter's main entry (and a request dialect) runs anywhere: no Node API but hashing (node:crypto); its ./node sub-entry reads files.
    files: ['packages/adapter-*/src/**/*.ts', 'packages/request-*/src/**/*.ts', 'packages/contract/src/**/*.ts'],
    ignores: ['packages/adapter-*/src/node/**', '**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron, noBetterSqlite,
      { group: [...NODE_BUILTINS.filter((b) => b !== 'crypto'), '!node:crypto'], message: 'An adapter main entry (and the contract) runs anywhere: no Node API; use the ./node sub-entry.' }],
      paths: [{ name: 'crypto', message: 'use node:crypto' }] }] },
  },
  {
    // The shared test support holds the index's write lock open (packages/test-support/src/store/index-db.ts).
    files: ['packages/store/**/*.ts', 'packages/test-support/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron] }] },
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
