import { refusalOf } from '@glassbox/engine';
import { glassboxFor } from '../engine';
import { EXIT_BAD_INPUT, UsageError } from '../exit-codes';
import { outJson, type CliIO } from '../io';

const CONVERSATION_ID = /^[0-9a-f]{16}$/;

/** `glassbox show proxy …` or `glassbox show <proxy conversation id> …`. */
export function isProxyRef(ref: string): boolean {
  return ref === 'proxy' || CONVERSATION_ID.test(ref);
}

/**
 * A payload the proxy removed, back from the archive (hash-checked): by the sha-256 prefix its
 * tombstone shows, or by its tool_use id. The payload goes to stdout untouched; where it came from,
 * to stderr.
 */
export async function showProxyPayload(ref: string, segment: string, io: CliIO, opts: { json?: boolean; archive?: string }): Promise<void> {
  const { ProxyArchive, showRemoved } = await import('@glassbox/proxy');
  const archive = new ProxyArchive(glassboxFor(io, { archive: opts.archive }).setup.archiveDir);
  let shown: ReturnType<typeof showRemoved>;
  try {
    shown = showRemoved(archive, segment, ref === 'proxy' ? undefined : ref);
  } catch (error) {
    // A damaged archive object (its hash does not match) is the archive's refusal, said as such.
    throw refusalOf(error) ?? error;
  }
  if (shown.length === 0) throw new UsageError(`nothing the proxy removed matches ${segment} (give the sha256 prefix a tombstone shows, or a tool_use id; glassbox proxy status lists them)`, EXIT_BAD_INPUT);
  if (opts.json) {
    outJson(io, shown);
    return;
  }
  for (const s of shown) {
    io.err(`# conversation ${s.conversation}  request ${s.record.request}  ${s.record.source}  sha256 ${s.record.sha256}`);
    io.out(s.text);
  }
}
