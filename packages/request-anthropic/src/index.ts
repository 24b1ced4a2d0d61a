/**
 * The Anthropic Messages API as Glassbox's proxy reads it (docs/proxy.md): a request's bytes laid
 * out value by value, its messages as the neutral model (so analysis applies the same rules and
 * proofs as to a transcript), tombstones spliced in and checked, and what a reply reports. Pure:
 * no I/O, like an adapter; it imports only core.
 */
export { readRequest, type ReadRequest, type RequestMessage, type RequestBlock, type RequestReading, type MessageRole } from './request';
export { requestEnvironment, cacheMarkerTtl, type RequestEnvironment } from './environment';
export { requestSession, segmentPlace, nodeId, resultText, ANTHROPIC_BYTES_PER_TOKEN, type KnownReply, type RequestSessionOptions, type RequestSessionResult } from './session';
export { rewriteRequest, checkRewrite, locate, type Replacement, type Removed, type Rewrite } from './rewrite';
export { conversationKey } from './conversation';
export { StreamFacts, jsonFacts, messageSignature, type ResponseFacts } from './response';
export { WRITE_TOOL_FIELDS } from './tools';
