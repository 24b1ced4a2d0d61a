import { defineProject } from 'vitest/config';

// Repository-wide checks (the lint layering).
export default defineProject({ test: { setupFiles: ['test-env/sealed-home.ts'], name: 'repo', environment: 'node', include: ['**/*.test.ts'], testTimeout: 60_000 } });
