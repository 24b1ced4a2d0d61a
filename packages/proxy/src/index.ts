/**
 * `glassbox proxy`: a local HTTP proxy for the Anthropic Messages API that removes proven-dead
 * content from each request when the prompt cache makes it free, and never touches the saved
 * session (docs/proxy.md). The request's messages are read by `@glassbox/request-anthropic`, judged
 * by `@glassbox/analysis` exactly as `inspect` judges a transcript, and what was removed is kept in
 * Glassbox's archive.
 */
export { startProxy, type ProxyOptions, type RunningProxy, type ProxyTotals } from './server';
export { ProxyArchive } from './archive';
export { proxyStatus, showRemoved, type ConversationStatus, type ShownPayload } from './status';
export type { DecideSettings } from './decide';
export type { RemovalRecord, RequestEvent, ConversationMeta, RemovalMoment } from './records';
