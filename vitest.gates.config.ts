// The slow gates (electron-builder's packaging dry run, the electronegativity scan, the CLI's process-level
// fault suite: parallel indexers, kill -9 during a fork, full disks): their own vitest run in `npm test`
// (npm run test:gates), kept out of every plain `vitest run`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'gates', environment: 'node', include: ['apps/*/src/**/*.gate.ts'], testTimeout: 240_000, hookTimeout: 60_000 },
});
