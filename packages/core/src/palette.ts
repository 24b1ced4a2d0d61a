import type { SegmentClass } from './snapshot';

/**
 * One palette for the app and the CLI (UI.md): Okabe–Ito colours, safe for colour-blind readers.
 * `unattributed` is the part of the window not in the transcript (system prompt, tools, memory).
 */
export const CLASS_COLOUR: Record<SegmentClass | 'unattributed', string> = {
  live: '#5B7083',
  gone: '#D55E00',
  'stale-drift': '#E69F00',
  'stale-superseded': '#F0E442',
  duplicate: '#CC79A7',
  spent: '#009E73',
  unattributed: '#3A3A3A',
};
