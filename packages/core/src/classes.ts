/**
 * The segment classes, in one place: what each proves, how it is shown, and how a tombstone words it.
 * The CLI, the renderer, the IPC contract and the benchmarks derive their class lists from here;
 * analysis has one rule file per class (packages/analysis/src/rules/). Adding a class is a proof type
 * below, an entry in CLASS_REGISTRY, and a rule file (see CONTRIBUTING.md).
 */

/** A reference to another segment, for "jump to" links in proofs. */
export interface SegmentRef {
  segmentId: string;
  line: number;
  timestamp?: string;
  toolUseId?: string;
}

export interface LineRange {
  startLine: number;
  endLine: number;
  full: boolean;
}

/** Proofs of the dead classes: what a user can read and check before anything is evicted. */
export interface DeadProofs {
  gone: { path: string; checkedPath: string; checkedAt: string; cwdExists: true };
  'stale-drift': {
    path: string;
    checkedPath: string;
    checkedAt: string;
    range: LineRange;
    capturedHash: string;
    currentHash: string;
    /** Unified diff of the captured range against the same range on disk now. */
    diff: string;
  };
  'stale-superseded': {
    path: string;
    range: LineRange;
    by: SegmentRef & { kind: 'read' | 'write'; range?: LineRange };
  };
  duplicate: { hash: string; bytes: number; kept: SegmentRef; copies: number };
  spent: { inferred: true; reason: string };
  /**
   * Lossy but recoverable: the result keeps its first and last lines, its middle is archived and a
   * marker names it (core's elision.ts). `overTokens` and `keep` are the thresholds it was chosen under.
   */
  elided: { inferred: true; recoverable: true; overTokens: number; keep: { chars: number; lines: number }; reason: string };
}

/** Evidence for classes that are neither live nor dead: what the segment is, not why to remove it. */
export interface MarkProofs {
  /** A payload Glassbox already replaced in a fork: its text, and the archive hash prefix it names. */
  tombstone: {
    sha256Prefix: string | null;
    text: string;
    /** An elision: the payload's own head and tail kept around a marker; the prefix names the archived middle. */
    elided?: true;
  };
}

export type DeadClass = keyof DeadProofs;
export type SegmentClass = 'live' | keyof MarkProofs | DeadClass;
type ProofMap = DeadProofs & MarkProofs;
export type ProofOf<K extends keyof ProofMap> = { class: K } & ProofMap[K];
export type Proof = { [K in keyof ProofMap]: ProofOf<K> }[keyof ProofMap];
export type DeadProof = { [K in DeadClass]: ProofOf<K> }[DeadClass];

export interface ClassInfo<K extends SegmentClass> {
  id: K;
  /** `proven` and `inferred` classes are dead; `none` is live, or a mark such as a tombstone. */
  evidence: 'none' | 'proven' | 'inferred';
  /** Chosen for a fork unless the user says otherwise (the lossless default: proven classes only). */
  defaultOn: boolean;
  label: string;
  /** Okabe–Ito colours, safe for colour-blind readers; neutral greys for what is not dead. */
  colour: string;
  /** Drawn hatched: inferred, not proven. */
  hatched: boolean;
  /** Position in legends, tables and pickers. */
  order: number;
  /** One sentence for legends and help. */
  description: string;
  /** The clause a tombstone and the CLI use to say why the payload is dead. */
  reason: K extends DeadClass ? (proof: ProofOf<K>, label?: string) => string : null;
}

function rangeText(r: LineRange): string {
  return r.full ? 'whole file' : `lines ${r.startLine}-${r.endLine}`;
}

function at(ts: string | undefined): string {
  if (!ts) return '';
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? '' : ` at ${d.toISOString().slice(11, 16)}`;
}

export const CLASS_REGISTRY: { readonly [K in SegmentClass]: ClassInfo<K> } = {
  live: {
    id: 'live',
    evidence: 'none',
    defaultOn: false,
    label: 'live',
    colour: '#5B7083',
    hatched: false,
    order: 0,
    description: 'nothing proves it dead, so it stays',
    reason: null,
  },
  tombstone: {
    id: 'tombstone',
    evidence: 'none',
    defaultOn: false,
    label: 'tombstone',
    colour: '#A7A9AC',
    hatched: false,
    order: 1,
    description: 'a payload an earlier fork already replaced; never dead, never planned again',
    reason: null,
  },
  gone: {
    id: 'gone',
    evidence: 'proven',
    defaultOn: true,
    label: 'gone',
    colour: '#D55E00',
    hatched: false,
    order: 2,
    description: 'the file no longer exists in the working directory',
    reason: (p, label) => `gone: ${label ?? p.path} no longer exists`,
  },
  'stale-drift': {
    id: 'stale-drift',
    evidence: 'proven',
    defaultOn: true,
    label: 'stale · drift',
    colour: '#E69F00',
    hatched: false,
    order: 3,
    description: 'the lines the read captured differ from the same lines on disk now',
    reason: (p) => `stale-drift: the file changed since this read (${rangeText(p.range)}); read it again if needed`,
  },
  'stale-superseded': {
    id: 'stale-superseded',
    evidence: 'proven',
    defaultOn: true,
    label: 'stale · superseded',
    colour: '#F0E442',
    hatched: false,
    order: 4,
    description: 'a later read covers the same lines, or a later Write replaced the file',
    reason: (p) =>
      p.by.kind === 'write'
        ? `stale-superseded: the Write on line ${p.by.line}${at(p.by.timestamp)} replaced the whole file`
        : `stale-superseded: the later read on line ${p.by.line}${at(p.by.timestamp)} covers it`,
  },
  duplicate: {
    id: 'duplicate',
    evidence: 'proven',
    defaultOn: true,
    label: 'duplicate',
    colour: '#CC79A7',
    hatched: false,
    order: 5,
    description: 'a later resident copy has the same bytes',
    reason: (p) => `duplicate: an identical copy is kept on line ${p.kept.line}`,
  },
  spent: {
    id: 'spent',
    evidence: 'inferred',
    defaultOn: false,
    label: 'spent (inferred)',
    colour: '#009E73',
    hatched: true,
    order: 6,
    description: 'inferred, not proven: a one-shot output never referenced again',
    reason: (p) => `spent (inferred): ${p.reason}`,
  },
  elided: {
    id: 'elided',
    evidence: 'inferred',
    defaultOn: false,
    label: 'elided (lossy, recoverable)',
    colour: '#56B4E9',
    hatched: true,
    order: 7,
    description: 'lossy, recoverable: a large old tool result keeps its first and last lines; the middle is archived and can be recalled',
    reason: (p) => `elided (lossy, recoverable): ${p.reason}`,
  },
};

const byOrder = (a: SegmentClass, b: SegmentClass): number => CLASS_REGISTRY[a].order - CLASS_REGISTRY[b].order;

/** Every class, in display order. */
export const SEGMENT_CLASSES: readonly SegmentClass[] = (Object.keys(CLASS_REGISTRY) as SegmentClass[]).sort(byOrder);
/** The classes a fork may remove, in display order. */
export const DEAD_CLASSES: readonly DeadClass[] = SEGMENT_CLASSES.filter((c): c is DeadClass => CLASS_REGISTRY[c].evidence !== 'none');
/** Proven, not inferred: the lossless default. */
export const PROVABLE_CLASSES: readonly DeadClass[] = DEAD_CLASSES.filter((c) => CLASS_REGISTRY[c].evidence === 'proven');
/** Inferred classes: visible, off by default, never part of the lossless default. */
export const INFERRED_CLASSES: readonly DeadClass[] = DEAD_CLASSES.filter((c) => CLASS_REGISTRY[c].evidence === 'inferred');
/** Chosen for a fork unless the user says otherwise. */
export const DEFAULT_FORK_CLASSES: readonly DeadClass[] = DEAD_CLASSES.filter((c) => CLASS_REGISTRY[c].defaultOn);

export function isDeadClass(c: string): c is DeadClass {
  return (DEAD_CLASSES as readonly string[]).includes(c);
}

export function classInfo<K extends SegmentClass>(c: K): ClassInfo<K> {
  return CLASS_REGISTRY[c];
}

/** Why a dead payload is dead, in one clause a model can act on (the tombstone's wording). */
export function deathReason(proof: DeadProof, label?: string): string {
  const reason = CLASS_REGISTRY[proof.class].reason as (p: DeadProof, label?: string) => string;
  return reason(proof, label);
}

/** A zero per dead class, for totals keyed by class. */
export function zeroByDeadClass<T>(make: () => T): Record<DeadClass, T> {
  return Object.fromEntries(DEAD_CLASSES.map((c) => [c, make()])) as Record<DeadClass, T>;
}
