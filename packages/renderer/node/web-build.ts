// Node side of the renderer package: where its browser build lives, and how to make it. Used by
// `glassbox ui` and the end-to-end set-up; the renderer's own sources never import Node.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** The built renderer for browser mode (index.html + assets). */
export const WEB_DIR = join(PACKAGE_DIR, 'dist', 'web');

export function webBuilt(): boolean {
  return existsSync(join(WEB_DIR, 'index.html'));
}

/** Builds the renderer for browser mode into WEB_DIR. */
export async function buildWeb(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: join(PACKAGE_DIR, 'vite.config.ts'), logLevel: 'warn' });
}
