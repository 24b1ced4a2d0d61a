// Builds the web renderer once before the run (glassbox ui serves out/web).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export default async function globalSetup(): Promise<void> {
  const desktop = join(dirname(fileURLToPath(import.meta.url)), '..');
  await build({ configFile: join(desktop, 'vite.web.config.ts'), logLevel: 'warn' });
}
