import { defineProject } from 'vitest/config';

export default defineProject({
  test: { setupFiles: ['../../scripts/test-env/sealed-home.ts'], name: 'file-io', environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 30_000, passWithNoTests: true },
});
