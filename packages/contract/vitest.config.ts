import { defineProject } from 'vitest/config';

export default defineProject({ test: { setupFiles: ['../../scripts/test-env/sealed-home.ts'], name: 'contract', environment: 'node', passWithNoTests: true } });
