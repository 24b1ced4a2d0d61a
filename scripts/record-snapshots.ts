// npm run snapshots:record — rewrites fixtures/snapshots/*.json from the engine's current output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDED, RECORDED_COMPACTIONS, SNAPSHOT_DIR, recordCompactions, recordSnapshot } from '@glassbox/test-support/host/recorded-snapshots';

mkdirSync(SNAPSHOT_DIR, { recursive: true });
for (const name of RECORDED) {
  writeFileSync(join(SNAPSHOT_DIR, `${name}.json`), recordSnapshot(name));
  console.log(`recorded ${name}`);
}
for (const name of RECORDED_COMPACTIONS) {
  writeFileSync(join(SNAPSHOT_DIR, `${name}.compactions.json`), recordCompactions(name));
  console.log(`recorded ${name} compactions`);
}
