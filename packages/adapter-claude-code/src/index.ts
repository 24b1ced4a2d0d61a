export { TranscriptParser, parseUsage, jsonBytes, type ParserOptions } from './parser';
export { chooseLeaf, descendsFrom } from './leaf';
export { parseNumberedText } from './numbered-text';
export { relativeLabel, opFromInput, refineRead } from './tool-ops';
export { sha256, utf8Bytes } from './hash';
export { KNOWN_RECORD_TYPES } from './record-types';
export * from './fork';
