import { type Block, type BlockKind, type ChainNode } from '@glassbox/core';
import { tokensOf } from '../tokens';
import { isObject, str, type JsonObject } from '../record-types';
import { SYNTHETIC_MODEL } from '../summary/placeholder';
import { renderAttachmentRecord } from './attachments';
import { hasRecordedRendering, versionRecordsRenderings } from './recorded-rendering';
import { imageBlock, jsonBytes, otherBlock, parseUsage, preview, textBlock } from './blocks';
import { dropCapturedTextBefore, readBoundary, readMicroBoundary } from './compaction';
import { displayPrompt, userRecordKind } from '../user-text';
import type { ParseState } from './state';
import { takeToolResult, takeToolUse } from './tool-links';
import { deferDetail } from './deferred-details';

const TASK_NOTIFICATION = 'task notification';
/**
 * 2.1.33x sends a `<task-notification>` message framed as a system notification: inside a
 * `<system-reminder>` wrapper (18 + 19 bytes), after a fixed 498-byte warning that it is not the
 * person's input (measured in its request log, fixture 22).
 */
const TASK_NOTIFICATION_FRAME_BYTES = 18 + 498 + 19;

/** A `user` record: a prompt, tool results, harness text or a compaction summary. */
export function takeUser(state: ParseState, r: JsonObject, node: ChainNode): void {
  const message = r['message'];
  const content = isObject(message) ? message['content'] : undefined;
  const { kind, promptText, label } = userRecordKind(r);
  node.kind = kind;
  if (kind === 'prompt' && promptText !== null && !state.chainOnly) notePrompt(state, node, promptText);

  if (typeof content === 'string') {
    const block = heldTextBlock(state, node, 0, 'text', content);
    if (label) block.label = label;
    if (label === TASK_NOTIFICATION && !content.startsWith('[SYSTEM NOTIFICATION')) {
      block.bytes += TASK_NOTIFICATION_FRAME_BYTES;
      block.tokens = tokensOf(block.bytes);
    }
    node.blocks.push(block);
    return;
  }
  if (!Array.isArray(content)) return;
  const mirror = r['toolUseResult'];
  if (mirror !== undefined && !state.chainOnly) {
    const bytes = jsonBytes(mirror);
    node.mirrorBytes = bytes;
    state.stats.mirrorBytes += bytes;
  }
  content.forEach((block, index) => {
    if (!isObject(block)) return;
    const btype = str(block['type']);
    if (btype === 'tool_result') {
      node.blocks.push(takeToolResult(state, block, index, node, mirror));
    } else if (btype === 'text') {
      node.blocks.push(heldTextBlock(state, node, index, 'text', str(block['text']) ?? ''));
    } else if (btype === 'image' || btype === 'document') {
      node.blocks.push(imageBlock(index, btype));
    } else {
      node.blocks.push(otherBlock(index, block));
    }
  });
}

/** A text block whose preview waits until its record is known to stay (deferred-details.ts). */
function heldTextBlock(state: ParseState, node: ChainNode, index: number, kind: BlockKind, text: string): Block {
  if (state.chainOnly) return textBlock(index, kind, text);
  const block = textBlock(index, kind, text, '');
  if (state.previews) deferDetail(state, { node, block, text, hashOf: undefined, mark: false });
  return block;
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
  // 2.1.33x: a reply a fallback model served names the model it stood in for.
  const inPlaceOf = str(r['inPlaceOfModel']);
  if (inPlaceOf) node.inPlaceOfModel = inPlaceOf;
  if (model === SYNTHETIC_MODEL) {
    node.synthetic = true;
    // The client shows an API failure as a reply of its own; it never sends it back (docs/claude-code/).
    if (r['isApiErrorMessage'] === true) node.notSent = 'an API error shown in place of a reply';
  }
  const bad = { invalid: false };
  const usage = parseUsage(message['usage'], bad);
  if (usage) node.usage = usage;
  if (bad.invalid) {
    state.problems.push({
      code: 'invalid_usage',
      severity: 'warning',
      file: state.path,
      line: node.line,
      message: `${state.path}:${node.line}: the reply's usage holds a token count that is not a whole number of 0 or more; it was counted as 0`,
    });
  }
  const content = message['content'];
  if (typeof content === 'string') {
    node.blocks.push(heldTextBlock(state, node, 0, 'text', content));
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((block, index) => {
    if (!isObject(block)) return;
    switch (block['type']) {
      case 'text':
        node.blocks.push(heldTextBlock(state, node, index, 'text', str(block['text']) ?? ''));
        break;
      case 'thinking':
        node.blocks.push(reasoning(heldTextBlock(state, node, index, 'thinking', str(block['thinking']) ?? ''), model));
        break;
      case 'redacted_thinking':
        node.blocks.push(reasoning({ ...textBlock(index, 'redacted-thinking', str(block['data']) ?? ''), preview: '(redacted thinking)' }, model));
        break;
      case 'tool_use':
      case 'server_tool_use':
        node.blocks.push(takeToolUse(state, block, index, node));
        break;
      default: {
        // Server-side tool results (web search…) answer their call inside the same response.
        const other = otherBlock(index, block);
        const answers = str(block['tool_use_id']);
        if (answers) other.toolUseId = answers;
        node.blocks.push(other);
      }
    }
  });
}

/** The client sends reasoning back only to the model that wrote it (its own replies excepted). */
function reasoning(block: Block, model: string | undefined): Block {
  if (model && model !== SYNTHETIC_MODEL) block.sentWithModel = model;
  return block;
}

/** An `attachment` record: context the client adds, sized as the text it sends (or marked as never sent). */
export function takeAttachment(state: ParseState, r: JsonObject, node: ChainNode): void {
  node.kind = 'attachment';
  const att = r['attachment'];
  if (!isObject(att)) return;
  node.subtype = str(att['type']) ?? 'attachment';
  const version = str(r['version']);
  if (version && hasRecordedRendering(r)) state.renderingVersions.add(version);
  if (node.subtype === 'model') {
    // 2.1.33x names the model the session runs on whenever it changes; the client restores it on resume.
    const identity = isObject(att['identity']) ? att['identity'] : {};
    const named = str(identity['modelId']);
    if (named) node.namesModel = named;
  }
  const rendered = renderAttachmentRecord(r, state.cwd, versionRecordsRenderings(version, state.renderingVersions));
  if ('notSent' in rendered) {
    node.blocks.push({ index: 0, kind: 'text', bytes: 0, tokens: 0, preview: rendered.label, label: rendered.label, notSent: rendered.notSent });
    return;
  }
  const block: Block = {
    index: 0,
    kind: 'text',
    bytes: rendered.bytes,
    tokens: tokensOf(rendered.bytes),
    preview: state.chainOnly ? preview(rendered.text) : '',
    label: rendered.label,
  };
  if (state.previews) deferDetail(state, { node, block, text: rendered.text, hashOf: undefined, mark: false });
  if (rendered.recorded) block.recordedAsSent = true;
  if (rendered.recorded && r['renderedRole'] !== 'system') block.wrappedAsSent = true;
  node.blocks.push(block);
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
  if (subtype === 'local_command') {
    // A slash command's echo and output: the client sends these as user text (docs/claude-code/).
    node.kind = 'meta';
    node.blocks.push({ ...textBlock(0, 'text', str(r['content']) ?? ''), label: 'local command' });
    return false;
  }
  // Every other system record (durations, hook summaries, notices…) stays in the client's UI.
  node.kind = 'system';
  return false;
}
