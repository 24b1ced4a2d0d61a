import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { directEdges, layersPicture } from './layers-picture';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the layer picture', () => {
  it('drops only the imports another allowed path already implies', () => {
    const graph = { shell: ['engine', 'core'], engine: ['core'], core: [] };
    expect(directEdges(graph)).toEqual([
      ['engine', 'core'],
      ['shell', 'engine'],
    ]);
  });

  it('in ARCHITECTURE.md is the one the lint rule draws', () => {
    const doc = readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8');
    expect(doc).toContain(layersPicture());
  });
});
