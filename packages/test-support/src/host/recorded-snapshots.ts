// Snapshots of real sessions as the engine makes them, recorded as JSON for the renderer's tests (which
// must not start the engine). Paths are relative to the repository and times fixed, so a recording is
// the same on every machine; recorded-snapshots.test.ts fails when the engine's output moves on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSessionWithSubagents } from '@glassbox/adapter-claude-code/node';
import type { ClassifiedSnapshot } from '@glassbox/core';
import { tmpdir } from 'node:os';
import { defaultAgents } from '@glassbox/agents';
import { hostGlassbox } from '@glassbox/host';
import { GENERATED, REPO_ROOT } from './seed';

export const RECORDED = ['02-gone-drift-errors', '03-large-outputs'] as const;
export const SNAPSHOT_DIR = join(REPO_ROOT, 'fixtures', 'snapshots');

/** The engine's snapshot of a generated corpus session, with its project mapped to project-after/. */
export function recordSnapshot(name: string): string {
  const folder = join(GENERATED, name);
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { session_ids: string[] };
  const path = join(folder, 'claude-project', `${manifest.session_ids[0]}.jsonl`);
  const loaded = loadSessionWithSubagents(path);
  const snapshot: ClassifiedSnapshot = glassbox().sessions.analyze(loaded, { repoRoot: join(folder, 'project-after'), withInferred: false });
  return normalise(JSON.stringify(snapshot, null, 1)) + '\n';
}

export const RECORDED_COMPACTIONS = ['18-compaction-kept-dropped'] as const;

/** The engine's compaction x-rays of a generated corpus session (as `session:compactions` returns them), mapped to project-after/. */
export function recordCompactions(name: string): string {
  const folder = join(GENERATED, name);
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { session_ids: string[] };
  const path = join(folder, 'claude-project', `${manifest.session_ids[0]}.jsonl`);
  const loaded = loadSessionWithSubagents(path);
  const agents = defaultAgents();
  const histories = glassbox().sessions.compactions({ agent: agents.byId('claude-code'), loaded }, { repoRoot: join(folder, 'project-after') });
  return normalise(JSON.stringify({ histories, analysedAt: '<time>' }, null, 1)) + '\n';
}

/** Recording reads sessions only: its data folder is never written. */
function glassbox() {
  return hostGlassbox(defaultAgents(), join(tmpdir(), 'glassbox-recording-unused'));
}

function normalise(json: string): string {
  return json.split(REPO_ROOT).join('<repo>').replace(/"(checkedAt)": "[^"]*"/g, '"$1": "<time>"');
}
