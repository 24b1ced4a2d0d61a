import { defineProject } from 'vitest/config';

export default defineProject({
  test: { setupFiles: ['../../scripts/test-env/sealed-home.ts'], name: 'desktop', environment: 'node', include: ['src/**/*.test.{ts,tsx}'], testTimeout: 30_000 },
});
