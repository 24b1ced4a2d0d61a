export { TranscriptParser, parseUsage, jsonBytes, type ParserOptions } from './parser';
export { chooseLeaf, descendsFrom } from './leaf';
export { parseNumberedText } from './numbered-text';
export { relativeLabel, opFromInput, refineRead } from './tool-ops';
export { sha256, utf8Bytes } from './hash';
export { KNOWN_RECORD_TYPES } from './record-types';
export * from './fork';
export { claudeCodeFormat } from './agent';
export { CLAUDE_CODE, CLAUDE_CODE_LABEL } from './identity';
export { CLAUDE_PRICES } from './prices';
export { resumeCommand, resumeInstruction, shellQuote } from './resume';
export { ClaudeSummarizer, titleOf } from './summary/summarizer';
export { readTail } from './summary/tail';
export { SYNTHETIC_MODEL, isClientPlaceholder } from './summary/placeholder';
export { recogniseClaudeCode } from './recognise';
export { userRecordKind, isHarnessText, displayPrompt } from './user-text';
export { renderAttachment, renderAttachmentRecord, type RenderedAttachment, type DroppedAttachment } from './parse/attachments';
export { CLAUDE_CODE_REQUEST_POLICY, resumeModel } from './request/policy';
export { CLIENTS, NEWEST_CLIENT, clientRules, modelFamily, whyNotResumable, remindersAsSystemMessages, type ClientRules } from './request/models';
export { CLAUDE_MODELS } from './models/catalogue';
export {
  windowItems,
  requestItems,
  compareWindowWithRequest,
  type WindowItem,
  type RequestItems,
  type WindowComparison,
} from './request/compare';
export { cleanupRule, readCleanupSetting, DEFAULT_CLEANUP_DAYS, type SettingsText, type SettingsScope, type CleanupSetting } from './retention/rule';
