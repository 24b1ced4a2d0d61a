// The slow release gates (electron-builder's packaging dry run, the electronegativity scan): their own
// vitest run in `npm test` (npm run test:gates), kept out of every plain `vitest run`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'desktop-gates', root: import.meta.dirname, environment: 'node', include: ['src/**/*.gate.ts'], testTimeout: 240_000 },
});
