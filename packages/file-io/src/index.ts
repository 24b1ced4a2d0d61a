/**
 * Reading transcript files on Node, shared by every agent adapter's Node side and the store: one
 * chunked line reader (line numbers and byte offsets, resumable from an offset, never holding a file
 * whole), a file followed as it grows (the lines appended since, or that it was rewritten), one line read back by its offset, an
 * open file read whole, I/O failures as problems, and which of the agents it is handed wrote a file
 * (by its first lines). No agent knowledge here.
 */
export { scanLines, type LineSink, type ScanResult } from './scan-lines';
export { FollowedLines, type Advance } from './follow-lines';
export { ioProblem } from './io-problem';
export { readSlice } from './read-slice';
export { readWhole } from './read-whole';
export { agentForFile, agentForLines, headLines, readHead, type Head } from './recognise';
export { pathList } from './path-list';
