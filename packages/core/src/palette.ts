import { CLASS_REGISTRY, type SegmentClass } from './classes';

/**
 * One palette for the app and the CLI, from the class registry. `unattributed` is the part of the
 * window not in the transcript (system prompt, tools, memory).
 */
export const CLASS_COLOUR: Record<SegmentClass | 'unattributed', string> = {
  ...(Object.fromEntries(Object.values(CLASS_REGISTRY).map((c) => [c.id, c.colour])) as Record<SegmentClass, string>),
  unattributed: '#3A3A3A',
};

/** Display labels, from the class registry. */
export const CLASS_LABEL: Record<SegmentClass | 'unattributed', string> = {
  ...(Object.fromEntries(Object.values(CLASS_REGISTRY).map((c) => [c.id, c.label])) as Record<SegmentClass, string>),
  unattributed: 'system prompt, tools, memory',
};
