import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'host', environment: 'node', include: ['src/**/*.test.{ts,tsx}'], testTimeout: 30_000 },
});
