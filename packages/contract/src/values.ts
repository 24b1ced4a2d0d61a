/**
 * The values that cross the boundary between the renderer and the engine host (no I/O, runs anywhere),
 * one file per area.
 */
export * from './session-list';
export * from './session-views';
export * from './fork-values';
export * from './keeping';
export * from './jobs';
export * from './host-info';
export * from './window-layout';
