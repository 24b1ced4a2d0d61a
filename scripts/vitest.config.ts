import { defineProject } from 'vitest/config';

// Repository-wide checks (the lint layering).
export default defineProject({ test: { name: 'repo', environment: 'node', include: ['**/*.test.ts'], testTimeout: 60_000 } });
