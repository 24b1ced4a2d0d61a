/**
 * The one contract between the renderer and the engine host, shared by Electron main, the preload, the
 * browser-mode HTTP server and the renderer: types, the runtime channel lists (checked by the compiler
 * against the type maps) and the argument validators main and the HTTP server run before any handler
 * sees a value. No I/O here: the renderer imports this package too.
 */
export * from './results';
export * from './values';
export * from './channels';
export * from './validate';
export type { CompactionsArgs, CompactionsView, CompactionItemArgs, CompactionItemText, CompactionFindArgs, CompactionFindResult } from './compactions';
export * from './raw-json';
export type { ProxyView, ProxyConversationView, ProxyRemovalView } from './proxy';
export { USAGE_GROUPING_VIEWS, type UsageGroupingView, type UsageReportArgs, type UsageReportView, type UsageRowView, type UsageFiguresView } from './usage';
