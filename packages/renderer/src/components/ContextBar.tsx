import { DEAD_CLASSES } from '@glassbox/core';
import type { SnapshotView } from '@glassbox/contract';
import { CLASS_COLOUR } from '../palette';
import { exact, humanTokens, pct } from '../format';

interface Part {
  key: string;
  label: string;
  tokens: number;
  colour: string;
  hatched?: boolean;
  title: string;
}

/**
 * What `/context` shows, as one bar over the model's window: the conversation, the set-up the
 * transcript shows (memory, listings), the system prompt and tools it does not, and the free space,
 * with the point where the client compacts on its own marked.
 */
export function ContextBar({ view, withSum = true }: { view: SnapshotView; withSum?: boolean }) {
  const { c, limits, used, free, window, parts } = contextParts(view);
  const at = limits?.autoCompact ?? null;
  const toCompact = at ? at.at - used : null;
  return (
    <section className="context-bar" aria-label="Context window" data-testid="context-bar">
      <div className="cb-line">
        <strong title={c.reportedTokens === null ? 'estimated: no provider-reported usage' : `${exact(c.reportedTokens)} tokens, provider-reported`}>{humanTokens(used)}</strong>
        {limits ? (
          <>
            <span className="dim">of</span>
            <span title={limits.windowBasis} data-testid="context-window">
              {humanTokens(limits.window)} ({pct(used / limits.window)})
            </span>
            <span className="sep">·</span>
            <span title="the window minus what the last request used">{humanTokens(free)} free</span>
            {at && toCompact !== null ? (
              <>
                <span className="sep">·</span>
                <span title={at.basis} data-testid="auto-compact">
                  {compactionSentence(at.proactive, at.at, toCompact)}
                </span>
              </>
            ) : null}
          </>
        ) : (
          <span className="dim">tokens · the model's window is not known</span>
        )}
      </div>
      <div className="cb-bar" role="img" aria-label={barLabel(parts, limits?.window ?? null, free)}>
        {parts.map((p) => (
          <span key={p.key} className={p.hatched ? 'hatched' : ''} style={{ width: `${(p.tokens / window) * 100}%`, background: p.colour }} title={`${p.label}: ${humanTokens(p.tokens)} — ${p.title}`} />
        ))}
        {at ? <i className="cb-mark" style={{ left: `${Math.min(100, (at.at / window) * 100)}%` }} title={at.basis} /> : null}
      </div>
      <ul className="cb-legend" aria-hidden="true" data-testid="context-legend">
        {parts.map((p) => (
          <li key={p.key} title={p.title}>
            <span className={`swatch${p.hatched ? ' hatched' : ''}`} style={{ background: p.colour }} />
            {p.label} {humanTokens(p.tokens)} <span className="dim">({pct(p.tokens / Math.max(used, 1))})</span>
          </li>
        ))}
        {limits ? (
          <li>
            <span className="swatch free" /> free {humanTokens(free)}
          </li>
        ) : null}
      </ul>
      {withSum ? <ContextSum view={view} /> : null}
    </section>
  );
}

/** The parts of the bar, as the bar, its legend and the sum under it count them. */
function contextParts(view: SnapshotView) {
  const c = view.snapshot.context;
  const ctx = view.context;
  const limits = ctx?.limits ?? null;
  const used = c.reportedTokens ?? c.estimatedTokens;
  const setup = ctx?.setup ?? [];
  const setupTokens = setup.reduce((n, p) => n + p.tokens, 0);
  const dead = view.figures.reclaimableTokens;
  const rest = c.unattributedTokens;
  const conversation = Math.max(0, used - rest - setupTokens - dead);
  const window = limits?.window ?? Math.max(used, 1);
  const free = Math.max(0, window - used);
  // Dead tokens take the colour of the class that holds most of them (one bar segment for all classes).
  const byClass = view.snapshot.reclaimable.byClass;
  const deadColour = CLASS_COLOUR[DEAD_CLASSES.reduce((a, b) => (byClass[b].tokens > byClass[a].tokens ? b : a))];
  const parts: Part[] = [
    { key: 'conversation', label: 'conversation', tokens: conversation, colour: CLASS_COLOUR.live, title: 'prompts, replies, tool calls and results that stay' },
    { key: 'dead', label: 'provably dead', tokens: dead, colour: deadColour, title: 'what the default fork removes, net of its tombstones (by class: the reclaimable bar above)' },
    { key: 'setup', label: setup.length ? setup.map((p) => p.label).join(', ') : 'set-up in the transcript', tokens: setupTokens, colour: '#8a6d3b', title: setup.map((p) => `${p.label}: ${humanTokens(p.tokens)} in ${p.segments} attachment(s)`).join('\n') },
    { key: 'system', label: 'system prompt & tools', tokens: rest, colour: CLASS_COLOUR.unattributed, hatched: true, title: ctx?.remainderNote ?? 'reported minus what the transcript accounts for' },
  ].filter((p) => p.tokens > 0);
  return { c, limits, used, free, window, parts };
}

/** The parts added up to the total, and the free space: under the bar, or in the header's details when narrow. */
export function ContextSum({ view }: { view: SnapshotView }) {
  const { c, limits, used, free, parts } = contextParts(view);
  return (
    <p className="cb-sum small dim" data-testid="context-sum">
      {parts.map((p) => `${p.label} ${humanTokens(p.tokens)}`).join(' + ')} = {humanTokens(used)} {c.reportedTokens === null ? 'estimated (no provider-reported usage)' : 'reported by the provider for the last request'}
      {limits ? `; ${humanTokens(free)} of the ${humanTokens(limits.window)} window is free.` : '.'}
    </p>
  );
}

/** Where the client compacts, in one plain sentence (some clients never compact on their own: the request is refused). */
function compactionSentence(proactive: boolean, at: number, toCompact: number): string {
  if (proactive) {
    return toCompact > 0 ? `The client compacts on its own at ${humanTokens(at)}: ${humanTokens(toCompact)} from here.` : `Past the point where the client compacts on its own (${humanTokens(at)}).`;
  }
  return toCompact > 0
    ? `This client does not compact on its own: a request is refused once the context passes about ${humanTokens(at)} (${humanTokens(toCompact)} from here).`
    : `Past about ${humanTokens(at)}, where this client refuses a request instead of compacting.`;
}

function barLabel(parts: Part[], window: number | null, free: number): string {
  const each = parts.map((p) => `${p.label} ${humanTokens(p.tokens)}`).join(', ');
  return window ? `Context window of ${humanTokens(window)}: ${each}, free ${humanTokens(free)}` : `Context: ${each}`;
}
