// npm run snapshots:record — rewrites fixtures/snapshots/*.json from the engine's current output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDED, SNAPSHOT_DIR, recordSnapshot } from '../packages/host/src/recorded-snapshots';

mkdirSync(SNAPSHOT_DIR, { recursive: true });
for (const name of RECORDED) {
  writeFileSync(join(SNAPSHOT_DIR, `${name}.json`), recordSnapshot(name));
  console.log(`recorded ${name}`);
}
