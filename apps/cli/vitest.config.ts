import { defineProject } from 'vitest/config';

export default defineProject({
  test: { setupFiles: ['../../scripts/test-env/sealed-home.ts'], name: 'cli', environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
