import { describe, expect, it } from 'vitest';
import {
  CLASS_REGISTRY,
  DEAD_CLASSES,
  DEFAULT_FORK_CLASSES,
  INFERRED_CLASSES,
  PROVABLE_CLASSES,
  SEGMENT_CLASSES,
  deathReason,
  isDeadClass,
  zeroByDeadClass,
} from './classes';
import { CLASS_COLOUR, CLASS_LABEL } from './palette';
import { formatTombstone, tombstoneHash } from './tombstone-format';

describe('the class registry', () => {
  it('lists every class once, in its display order, with its own colour and label', () => {
    expect(SEGMENT_CLASSES).toEqual(['live', 'tombstone', 'gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent', 'elided']);
    const colours = SEGMENT_CLASSES.map((c) => CLASS_COLOUR[c]);
    expect(new Set([...colours, CLASS_COLOUR.unattributed]).size).toBe(colours.length + 1);
    for (const c of SEGMENT_CLASSES) {
      expect(CLASS_REGISTRY[c].id).toBe(c);
      expect(CLASS_LABEL[c]).toBe(CLASS_REGISTRY[c].label);
      expect(CLASS_COLOUR[c]).toMatch(/^#[0-9A-F]{6}$/i);
    }
  });

  it('derives the dead, proven, inferred and default lists from the entries', () => {
    expect(DEAD_CLASSES).toEqual(['gone', 'stale-drift', 'stale-superseded', 'duplicate', 'spent', 'elided']);
    expect(PROVABLE_CLASSES).toEqual(['gone', 'stale-drift', 'stale-superseded', 'duplicate']);
    expect(INFERRED_CLASSES).toEqual(['spent', 'elided']);
    expect(DEFAULT_FORK_CLASSES).toEqual(PROVABLE_CLASSES);
    expect(isDeadClass('tombstone')).toBe(false);
    expect(isDeadClass('live')).toBe(false);
    expect(Object.keys(zeroByDeadClass(() => 0))).toEqual([...DEAD_CLASSES]);
  });

  it('words each dead class for a tombstone, and a tombstone reads back its hash', () => {
    const why = deathReason({ class: 'duplicate', hash: 'ab', bytes: 10, kept: { segmentId: 'x:0', line: 40 }, copies: 2 });
    expect(why).toBe('duplicate: an identical copy is kept on line 40');
    expect(deathReason({ class: 'gone', path: '/p/a.ts', checkedPath: '/q/a.ts', checkedAt: '', cwdExists: true }, 'a.ts')).toBe('gone: a.ts no longer exists');
    const text = formatTombstone('a read of a.ts', why, '3f2a9c01d4e5ffff');
    expect(text).toBe('[glassbox: removed a read of a.ts (duplicate: an identical copy is kept on line 40); sha256 3f2a9c01d4e5]');
    expect(tombstoneHash(text)).toBe('3f2a9c01d4e5');
  });
});
