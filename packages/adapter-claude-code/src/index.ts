export { TranscriptParser, parseUsage, jsonBytes, type ParserOptions } from './parser';
export { chooseLeaf, descendsFrom } from './leaf';
export { parseNumberedText } from './numbered-text';
export { relativeLabel, opFromInput, refineRead } from './tool-ops';
export { sha256, utf8Bytes } from './hash';
export { KNOWN_RECORD_TYPES } from './record-types';
export * from './fork';
export { renderAttachment, type RenderedAttachment, type DroppedAttachment } from './parse/attachments';
export { CLAUDE_CODE_REQUEST_POLICY, resumeModel } from './request/policy';
export { CLIENT_DEFAULT_MODEL, modelFamily, whyNotResumable, remindersAsSystemMessages } from './request/models';
export {
  windowItems,
  requestItems,
  compareWindowWithRequest,
  type WindowItem,
  type RequestItems,
  type WindowComparison,
} from './request/compare';
