import { defineProject } from 'vitest/config';

export default defineProject({
  test: { setupFiles: ['../../scripts/test-env/sealed-home.ts'], name: 'analysis', environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
