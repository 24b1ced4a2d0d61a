import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORDED, RECORDED_COMPACTIONS, SNAPSHOT_DIR, recordCompactions, recordSnapshot } from '@glassbox/test-support/host/recorded-snapshots';

describe('recorded snapshots for the renderer tests', () => {
  it.each(RECORDED)('%s is what the engine makes now (re-record with npm run snapshots:record)', (name) => {
    expect(readFileSync(join(SNAPSHOT_DIR, `${name}.json`), 'utf8')).toBe(recordSnapshot(name));
  });
  it.each(RECORDED_COMPACTIONS)('%s compactions are what the engine makes now (re-record with npm run snapshots:record)', (name) => {
    expect(readFileSync(join(SNAPSHOT_DIR, `${name}.compactions.json`), 'utf8')).toBe(recordCompactions(name));
  });
});
