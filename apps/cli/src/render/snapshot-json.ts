import type { ClassifiedSnapshot } from '@glassbox/core';

/** The `inspect --json` document: resident segments only, each with its class, tool call and proof. */
export function snapshotJson(snap: ClassifiedSnapshot): unknown {
  return {
    session: snap.session,
    leafUuid: snap.leafUuid,
    context: snap.context,
    ...(snap.request ? { request: snap.request } : {}),
    segments: snap.segments.map((s) => ({
      id: s.id,
      kind: s.kind,
      source: s.source,
      tokens: s.tokens,
      evictableTokens: s.evictableTokens,
      bytes: s.bytes,
      class: s.class,
      ...(s.toolUseId ? { toolUseId: s.toolUseId } : {}),
      ...(s.toolName ? { toolName: s.toolName } : {}),
      line: s.line,
      uuid: s.uuid,
      blockIndex: s.blockIndex,
      turn: s.turn,
      ...(s.timestamp ? { timestamp: s.timestamp } : {}),
      protected: s.protected,
      ...(s.isError ? { isError: true } : {}),
      ...(s.proof ? { proof: s.proof } : {}),
      ...(s.parts ? { parts: s.parts } : {}),
      preview: s.preview,
    })),
    reclaimable: snap.reclaimable,
    turns: snap.turns,
    subagents: snap.subagents,
    classes: snap.classes,
    problems: snap.problems.map((p) => ({ code: p.code, severity: p.severity, line: p.line ?? null, file: p.file ?? null, message: p.message })),
    checkedAt: snap.checkedAt,
  };
}
