import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'renderer', environment: 'node', include: ['src/**/*.test.{ts,tsx}'], testTimeout: 30_000 },
});
