import type { ClassRule } from './rule';

/**
 * A payload an earlier fork replaced with a Glassbox tombstone. It is never dead and never planned
 * again: what it replaced is already gone from the window, and the tombstone is how the model (and the
 * user) can get it back. The adapter flags the block when its text is in Glassbox's tombstone format.
 */
export const tombstoneRule: ClassRule<'tombstone'> = {
  class: 'tombstone',
  stage: 0,
  apply(ctx) {
    for (const seg of ctx.segments) {
      if (seg.kind !== 'tool-result' && seg.kind !== 'tool-input') continue;
      const block = ctx.session.nodes.get(seg.uuid)?.blocks.find((b) => b.index === seg.blockIndex);
      if (block?.tombstone === undefined) continue;
      const proof = { sha256Prefix: block.tombstone === '' ? null : block.tombstone, text: seg.kind === 'tool-result' ? seg.preview : block.preview };
      ctx.mark(seg, 'tombstone', block.elided ? { ...proof, elided: true } : proof);
    }
  },
};
