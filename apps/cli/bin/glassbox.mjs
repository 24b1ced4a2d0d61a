#!/usr/bin/env node
// Starts the CLI: the prebuilt bundle when it is current (built by `npm ci`/`npm run build:cli`), so a
// run holds no TypeScript loader; otherwise the sources through tsx, so `npx glassbox` works in
// development straight after an edit (entry.mjs decides).
import { pathToFileURL } from 'node:url';
import { chooseEntry } from './entry.mjs';

const entry = chooseEntry(new URL('..', import.meta.url).pathname);
if (entry.kind === 'source') {
  const { register } = await import('tsx/esm/api');
  register();
}
const { main } = await import(pathToFileURL(entry.path).href);
process.exitCode = await main(process.argv);
