import { basename, dirname, join, relative, sep } from 'node:path';

/** What the unit tests keep of a captured request: the model and the messages, without cache markers. */
export interface RecordedRequest {
  capturedWith: string;
  model: string;
  /** The prompt the resume sent (the tests leave it out). */
  prompt: string;
  messages: unknown[];
}

function withoutCacheMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarkers);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = withoutCacheMarkers(v);
    return out;
  }
  return value;
}

/** `client`: the version the harness's binary reports (`claude --version`). */
export function recordRequest(body: { model: string; messages: unknown[] }, client: string, prompt = 'reply ok'): RecordedRequest {
  return { capturedWith: `Claude Code ${client} (cc-harness resume-probe, mode resume)`, model: body.model, prompt, messages: withoutCacheMarkers(body.messages) as unknown[] };
}

/**
 * Where a fixture's recorded request lives: beside a generated session's scenario, or beside a public
 * transcript; `model` names a resume made with `--model` (`resume-request.<model>.json`).
 */
export function requestPathFor(transcript: string, corpus: string, model?: string): string {
  const rel = relative(corpus, transcript).split(sep);
  const suffix = model ? `.${model}` : '';
  if (rel[0] === 'generated' && rel[1]) return join(corpus, 'generated', rel[1], `resume-request${suffix}.json`);
  return join(dirname(transcript), `${basename(transcript, '.jsonl')}.resume-request${suffix}.json`);
}
