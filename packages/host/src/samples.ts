import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SampleSession } from '@glassbox/contract';
import { SAMPLE_BLURBS } from './sample-blurbs';

export interface SampleSet {
  sessions: SampleSession[];
  /** Recorded working directories mapped to the bundled project state, so gone and drift can be shown. */
  repoMap: Record<string, string>;
}

/**
 * Bundled sample sessions: real Claude Code transcripts (the generated corpus), each with the project's
 * files as they were when the session ended. Offered when the machine has no sessions of its own.
 */
export function loadSamples(dir: string | null): SampleSet {
  const out: SampleSet = { sessions: [], repoMap: {} };
  if (!dir || !existsSync(dir)) return out;
  for (const name of safeList(dir).sort()) {
    const folder = join(dir, name);
    let manifest: { description?: string; cwd?: string; session_ids?: string[]; project_after?: { dir?: string; maps_cwd?: string } };
    try {
      manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    const id = manifest.session_ids?.[0];
    const path = id ? join(folder, 'claude-project', `${id}.jsonl`) : join(folder, 'transcript.jsonl');
    if (!existsSync(path)) continue;
    const blurb = SAMPLE_BLURBS[name];
    out.sessions.push({ name, title: blurb?.title ?? name, description: blurb?.description ?? firstSentence(manifest.description ?? name), path });
    const after = manifest.project_after;
    if (after?.maps_cwd && after.dir && existsSync(join(folder, after.dir))) out.repoMap[after.maps_cwd] = join(folder, after.dir);
  }
  return out;
}

function firstSentence(text: string): string {
  const cut = text.split(/(?<=[.;])\s|, then /)[0] ?? text;
  return cut.length > 160 ? `${cut.slice(0, 157)}…` : cut;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
