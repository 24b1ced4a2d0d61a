#!/usr/bin/env node
// The CLI runs from its TypeScript sources through tsx, so `npx glassbox` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv);
