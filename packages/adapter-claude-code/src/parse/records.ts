import { estimateTokensFromBytes, type ChainNode } from '@glassbox/core';
import { isObject, str, type JsonObject } from '../record-types';
import { imageBlock, jsonBytes, otherBlock, parseUsage, preview, textBlock } from './blocks';
import { dropCapturedTextBefore, readBoundary, readMicroBoundary } from './compaction';
import { displayPrompt, isHarnessText } from './prompt-text';
import type { ParseState } from './state';
import { takeToolResult, takeToolUse } from './tool-links';

/** A `user` record: a prompt, tool results, harness text or a compaction summary. */
export function takeUser(state: ParseState, r: JsonObject, node: ChainNode): void {
  const message = r['message'];
  const content = isObject(message) ? message['content'] : undefined;
  const isMeta = r['isMeta'] === true;
  if (r['isCompactSummary'] === true) node.kind = 'compact-summary';
  else if (isMeta) node.kind = 'meta';
  else node.kind = 'prompt';

  if (typeof content === 'string') {
    node.blocks.push(textBlock(0, 'text', content));
    if (node.kind === 'prompt' && isHarnessText(content)) node.kind = 'meta';
    if (node.kind === 'prompt') notePrompt(state, node, content);
    return;
  }
  if (!Array.isArray(content)) return;
  let hasResult = false;
  let promptText: string | null = null;
  const mirror = r['toolUseResult'];
  if (mirror !== undefined) {
    const bytes = jsonBytes(mirror);
    node.mirrorBytes = bytes;
    state.stats.mirrorBytes += bytes;
  }
  content.forEach((block, index) => {
    if (!isObject(block)) return;
    const btype = str(block['type']);
    if (btype === 'tool_result') {
      hasResult = true;
      node.blocks.push(takeToolResult(state, block, index, node, mirror));
    } else if (btype === 'text') {
      const text = str(block['text']) ?? '';
      if (promptText === null) promptText = text;
      node.blocks.push(textBlock(index, 'text', text));
    } else if (btype === 'image' || btype === 'document') {
      node.blocks.push(imageBlock(index, btype));
    } else {
      node.blocks.push(otherBlock(index, block));
    }
  });
  if (hasResult) node.kind = 'tool-results';
  else if (node.kind === 'prompt' && promptText !== null) {
    if (isHarnessText(promptText)) node.kind = 'meta';
    else notePrompt(state, node, promptText);
  }
}

function notePrompt(state: ParseState, node: ChainNode, text: string): void {
  // A copy, not a slice: a slice would keep the whole prompt string alive.
  const shown = displayPrompt(text).slice(0, 400).split('').join('');
  node.promptText = shown;
  if (state.firstPrompt === null && !node.isSidechain) state.firstPrompt = shown;
}

/** An `assistant` record: usually one content block of a response that spans several records. */
export function takeAssistant(state: ParseState, r: JsonObject, node: ChainNode): void {
  node.kind = 'assistant';
  const message = r['message'];
  if (!isObject(message)) return;
  const id = str(message['id']);
  if (id) node.messageId = id;
  const requestId = str(r['requestId']);
  if (requestId) node.requestId = requestId;
  const model = str(message['model']);
  if (model) node.model = model;
  const usage = parseUsage(message['usage']);
  if (usage) node.usage = usage;
  const content = message['content'];
  if (typeof content === 'string') {
    node.blocks.push(textBlock(0, 'text', content));
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((block, index) => {
    if (!isObject(block)) return;
    switch (block['type']) {
      case 'text':
        node.blocks.push(textBlock(index, 'text', str(block['text']) ?? ''));
        break;
      case 'thinking':
        node.blocks.push(textBlock(index, 'thinking', str(block['thinking']) ?? ''));
        break;
      case 'redacted_thinking':
        node.blocks.push({ ...textBlock(index, 'redacted-thinking', str(block['data']) ?? ''), preview: '(redacted thinking)' });
        break;
      case 'tool_use':
      case 'server_tool_use':
        node.blocks.push(takeToolUse(state, block, index, node));
        break;
      default:
        node.blocks.push(otherBlock(index, block));
    }
  });
}

/** An `attachment` record: context the client adds to the conversation. */
export function takeAttachment(r: JsonObject, node: ChainNode): void {
  node.kind = 'attachment';
  const att = r['attachment'];
  if (!isObject(att)) return;
  node.subtype = str(att['type']) ?? 'attachment';
  // Attachments reach the model as system text; their JSON size is a fair stand-in for it.
  const bytes = jsonBytes(att);
  const label = str(att['filename']) ?? node.subtype;
  node.blocks.push({
    index: 0,
    kind: 'text',
    bytes,
    tokens: estimateTokensFromBytes(bytes),
    preview: preview(`${node.subtype}: ${label}`),
  });
}

/**
 * A `system` record. A main-thread compaction boundary is returned so that the parser can let go of
 * what precedes it once the boundary is stored.
 */
export function takeSystem(state: ParseState, r: JsonObject, node: ChainNode): boolean {
  const subtype = str(r['subtype']) ?? 'system';
  node.subtype = subtype;
  if (subtype === 'compact_boundary') {
    node.kind = 'compact-boundary';
    // Captured text is only held when asked for; otherwise there is nothing to let go.
    if (state.keepCapturedText) dropCapturedTextBefore(state, r);
    readBoundary(r, node);
    return true;
  }
  if (subtype === 'microcompact_boundary') {
    node.kind = 'microcompact-boundary';
    readMicroBoundary(r, node);
    return false;
  }
  node.kind = 'system';
  return false;
}
