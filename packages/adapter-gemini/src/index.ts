export { geminiFormat, type GeminiFormat } from './agent';
export { GEMINI, GEMINI_LABEL } from './identity';
export { GeminiParser, type GeminiSession } from './parser';
export { parseChatLines } from './parse-lines';
export { recogniseGemini } from './recognise';
export { GEMINI_PRICES } from './prices';
export { neutralUsage, tokensOfReply, type GeminiTokens } from './usage';
export { resumeCommand, resumeInstruction } from './resume';
export type { Generation } from './rules';
