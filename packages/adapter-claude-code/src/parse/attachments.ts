import { isObject, num, str, type Json, type JsonObject } from '../record-types';
import { utf8Bytes } from '../hash';
import { labelFor } from './attachment-labels';
import { jsonBytes } from './blocks';
import { recordedRendering } from './recorded-rendering';

/**
 * How Claude Code 2.1.197 turns an `attachment` record into text for the model when it builds a request
 * (docs/claude-code/what-the-client-sends.md). Each type either renders as reminder text or is never sent.
 *
 * The client's long fixed instructions (the plan-mode workflow, the todo nudge…) are not copied here:
 * they are counted by their measured length and shown as a placeholder, so sizes are exact while the
 * text shown is the part that comes from the record.
 */
export interface RenderedAttachment {
  /** What the attachment carries, for display: a hook name, a file path, "plan mode"… */
  label: string;
  /** The rendered text, with the client's fixed instructions abbreviated. */
  text: string;
  /** UTF-8 bytes of the text the client sends (fixed instructions included). */
  bytes: number;
  /** The client recorded this text with the record (2.1.33x `rendered`): exact, on any model. */
  recorded?: boolean;
}

export interface DroppedAttachment {
  label: string;
  /** Why the client leaves it out of the request. */
  notSent: string;
}

/** A piece of rendered text: a literal, or the byte length of the client's fixed wording. */
type Piece = string | { fixed: number; what: string };

const TOOL_SEARCH = 'ToolSearch';
const AMBIENT_NOTE_BYTES = 118; // "This is ambient context — do not narrate it …" (2.1.197)
const SEP = '\n\n';
/** Past this many names the client summarises a removed-tools list on one line. */
const LIST_SUMMARY_AFTER = 30;

/** Hooks whose plain output the client hands to the model; other events' output stays local. */
const HOOK_EVENTS_SENT = new Set(['SessionStart', 'UserPromptSubmit', 'UserPromptExpansion']);

/** Types the client's renderer drops explicitly (they exist for the UI or for bookkeeping). */
const NEVER_SENT = new Set([
  'context_tip',
  'dynamic_skill',
  'already_read_file',
  'command_permissions',
  'edited_image_file',
  'hook_cancelled',
  'hook_error_during_execution',
  'hook_non_blocking_error',
  'hook_system_message',
  'hook_permission_decision',
  'hook_deferred_tool',
  'goal_status',
  'structured_output',
  'max_turns_reached',
  'teammate_shutdown_batch',
  'context_efficiency',
  'autocheckpointing',
  'background_task_status',
  'todo',
  'task_progress',
  'ultramemory',
  'compaction_reminder',
  'current_session_memory',
  'thinking_reminder',
  'companion_intro',
  'pen_mode_enter',
  'pen_mode_exit',
  'ultrawork_request',
  'echo_activities',
  'verify_plan_reminder',
  // 2.1.33x: the system prompt and tools a request used, kept for the client's own bookkeeping.
  'prompt_snapshot',
]);

/**
 * An attachment record as the client sends it. 2.1.33x records what it sent with each attachment
 * (`rendered`: the messages' text; `renderedRole`: sent as a system or a user message) and sends
 * exactly that on resume; a record without it is rendered by its type, as older clients do
 * (recorded-rendering.ts says when a missing rendering means "nothing was sent").
 */
export function renderAttachmentRecord(record: JsonObject, cwd: string | null, recordsRenderings = false): RenderedAttachment | DroppedAttachment {
  const att = isObject(record['attachment']) ? record['attachment'] : {};
  const type = str(att['type']) ?? 'attachment';
  const recorded = recordedRendering(record);
  if (recorded) return { label: labelFor(type, att, cwd), ...recorded, recorded: true };
  if (recordsRenderings && !NEVER_SENT.has(type) && record['renderedRole'] === undefined) {
    return { label: labelFor(type, att, cwd), notSent: `recorded without a rendering: the client sent nothing for this ${type.replace(/_/g, ' ')}` };
  }
  return renderAttachment(att, cwd);
}

/**
 * Attachment types 2.1.197 renders by its own rules (the cases below) or drops on purpose: an older
 * client resuming a newer transcript ignores the recorded renderings and drops any other type.
 */
export const TYPES_KNOWN_TO_2_1_197: ReadonlySet<string> = new Set([
  ...NEVER_SENT,
  ...'hook_success hook_additional_context hook_blocking_error hook_stopped_continuation async_hook_response nested_memory skill_listing agent_listing_delta deferred_tools_delta mcp_instructions_delta todo_reminder task_reminder plan_mode plan_mode_reentry plan_mode_exit plan_file_reference file new_file compact_file_reference edited_text_file date_change opened_file_in_ide selected_lines_in_ide critical_system_reminder queued_command invoked_skills diagnostics mcp_resource relevant_memories task_status memory_update directory new_directory output_style token_usage budget_usd output_token_usage total_tokens_reminder tool_search_usage_reminder auto_mode auto_mode_exit agent_mention pdf_reference selected_lines_in_diff ultrathink_effort'.split(' '),
]);

export function renderAttachment(att: JsonObject, cwd: string | null): RenderedAttachment | DroppedAttachment {
  const type = str(att['type']) ?? 'attachment';
  if (NEVER_SENT.has(type)) return { label: labelFor(type, att, cwd), notSent: `the client does not send ${type} attachments` };
  const pieces = render(type, att);
  if (pieces === null) return { label: labelFor(type, att, cwd), notSent: emptyReason(type, att) };
  return assemble(labelFor(type, att, cwd), pieces);
}

function emptyReason(type: string, a: JsonObject): string {
  if (type === 'hook_success') {
    const event = str(a['hookEvent']) ?? 'this';
    return HOOK_EVENTS_SENT.has(event) ? 'a hook that printed nothing' : `output of a ${event} hook (the client sends only SessionStart and UserPromptSubmit hook output)`;
  }
  return `an empty ${type.replace(/_/g, ' ')}`;
}

function assemble(label: string, pieces: Piece[]): RenderedAttachment {
  let bytes = 0;
  let text = '';
  for (const p of pieces) {
    if (typeof p === 'string') {
      bytes += utf8Bytes(p);
      text += p;
    } else {
      bytes += p.fixed;
      text += `[${p.what}: ${p.fixed} bytes of the client's wording]`;
    }
  }
  return { label, text, bytes };
}

function strings(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Joins rendered sections with the blank line the client puts between them. */
function sections(parts: Piece[][]): Piece[] | null {
  const kept = parts.filter((p) => p.length > 0);
  if (kept.length === 0) return null;
  const out: Piece[] = [];
  kept.forEach((p, i) => {
    if (i > 0) out.push(SEP);
    out.push(...p);
  });
  return out;
}

/** `mcp__server__tool` names grouped per server, as the client abbreviates long lists. */
function groupNames(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) {
    const key = n.startsWith('mcp__') ? `${n.split('__', 2).join('__')}__*` : n;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([n, c]) => (c > 1 ? `${n} (${c})` : n))
    .join(', ');
}

function render(type: string, a: JsonObject): Piece[] | null {
  switch (type) {
    case 'hook_success': {
      const event = str(a['hookEvent']) ?? '';
      const content = str(a['content']) ?? '';
      if (!HOOK_EVENTS_SENT.has(event) || content === '') return null;
      return [`${str(a['hookName']) ?? event} hook success: ${content}`];
    }
    case 'hook_additional_context': {
      const lines = strings(a['content']);
      if (lines.length === 0) return null;
      return [`${str(a['hookName']) ?? 'hook'} hook additional context: ${lines.join('\n')}`];
    }
    case 'hook_blocking_error': {
      const e = isObject(a['blockingError']) ? a['blockingError'] : {};
      return [`${str(a['hookName']) ?? 'hook'} hook blocking error from command: "${str(e['command']) ?? ''}": ${str(e['blockingError']) ?? ''}`];
    }
    case 'hook_stopped_continuation':
      return [`${str(a['hookName']) ?? 'hook'} hook stopped continuation: ${str(a['message']) ?? ''}`];
    case 'async_hook_response': {
      const r = isObject(a['response']) ? a['response'] : {};
      const out: Piece[][] = [];
      const sys = str(r['systemMessage']);
      if (sys) out.push([sys]);
      const specific = isObject(r['hookSpecificOutput']) ? r['hookSpecificOutput'] : {};
      const extra = str(specific['additionalContext']);
      if (extra) out.push([extra]);
      return sections(out);
    }
    case 'nested_memory': {
      const c = isObject(a['content']) ? a['content'] : {};
      return [`Contents of ${str(c['path']) ?? str(a['path']) ?? ''}:\n\n${str(c['content']) ?? ''}`];
    }
    case 'skill_listing': {
      const content = str(a['content']);
      if (!content) return null;
      return [`The following skills are available for use with the Skill tool:\n\n${content}`];
    }
    case 'agent_listing_delta':
      return agentListing(a);
    case 'deferred_tools_delta':
      return deferredTools(a);
    case 'mcp_instructions_delta': {
      const added = strings(a['addedBlocks']);
      const removed = strings(a['removedNames']);
      const out: Piece[][] = [];
      if (added.length > 0) {
        out.push([`# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n${added.join(SEP)}`]);
      }
      if (removed.length > 0) {
        out.push([`The following MCP servers have disconnected. Their instructions above no longer apply:\n${removed.join('\n')}`]);
        out.push([{ fixed: AMBIENT_NOTE_BYTES, what: 'ambient-context note' }]);
      }
      return sections(out);
    }
    case 'todo_reminder': {
      const items = Array.isArray(a['content']) ? a['content'].filter(isObject) : [];
      const out: Piece[] = ['The TodoWrite tool hasn\'t been used recently.', { fixed: 385 - 45, what: 'todo reminder' }];
      if (items.length > 0) {
        const list = items.map((t, i) => `${i + 1}. [${str(t['status']) ?? ''}] ${str(t['content']) ?? ''}`).join('\n');
        out.push(`\n\nHere are the existing contents of your todo list:\n\n[${list}]`);
      }
      return out;
    }
    case 'task_reminder': {
      const items = Array.isArray(a['content']) ? a['content'].filter(isObject) : [];
      const out: Piece[] = ['The task tools haven\'t been used recently.', { fixed: 421 - 42, what: 'task reminder' }];
      if (items.length > 0) {
        const list = items.map((t) => `#${str(t['id']) ?? ''}. [${str(t['status']) ?? ''}] ${str(t['subject']) ?? ''}`).join('\n');
        out.push(`\n\nHere are the existing tasks:\n\n${list}`);
      }
      return out;
    }
    case 'plan_mode':
      return planMode(a);
    case 'plan_mode_reentry':
      return ['## Re-entering Plan Mode', { fixed: 957 - 24, what: 'plan-mode re-entry' }, str(a['planFilePath']) ?? ''];
    case 'plan_mode_exit': {
      const path = str(a['planFilePath']);
      const out: Piece[] = ['## Exited Plan Mode\n\nYou have exited plan mode. You can now make edits, run tools, and take actions.'];
      if (a['planExists'] === true && path) out.push(` The plan file is located at ${path} if you need to reference it.`);
      return out;
    }
    case 'plan_file_reference':
      return [
        `A plan file exists from plan mode at: ${str(a['planFilePath']) ?? ''}\n\nPlan contents:\n\n${str(a['planContent']) ?? ''}`,
        { fixed: 96, what: 'plan-file note' },
      ];
    case 'file':
    case 'new_file':
      return fileAttachment(a);
    case 'compact_file_reference':
      return [{ fixed: 143, what: 'file too large to re-attach' }, str(a['filename']) ?? ''];
    case 'edited_text_file': {
      const snippet = str(a['snippet']) ?? '';
      const file = str(a['filename']) ?? '';
      // Two wordings: with the changed lines, or a note that they were left out.
      return snippet === '' ? [{ fixed: 394, what: 'file-changed note' }, file] : [{ fixed: 301, what: 'file-changed note' }, file, snippet];
    }
    case 'date_change':
      return [{ fixed: 118, what: 'date-change note' }, str(a['newDate']) ?? ''];
    case 'opened_file_in_ide':
      return [{ fixed: 89, what: 'opened-file note' }, str(a['filename']) ?? ''];
    case 'selected_lines_in_ide':
      return [`The user selected the lines ${num(a['lineStart']) ?? ''} to ${num(a['lineEnd']) ?? ''} from ${str(a['filename']) ?? ''}:\n${str(a['content']) ?? ''}\n\nThis may or may not be related to the current task.`];
    case 'critical_system_reminder':
      return [str(a['content']) ?? ''];
    case 'queued_command':
      return queuedCommand(a);
    case 'invoked_skills': {
      const skills = Array.isArray(a['skills']) ? a['skills'].filter(isObject) : [];
      if (skills.length === 0) return null;
      const body = skills.map((s) => `### Skill: ${str(s['name']) ?? ''}\nPath: ${str(s['path']) ?? ''}\n\n${str(s['content']) ?? ''}`).join('\n\n---\n\n');
      return [{ fixed: 566, what: 'invoked-skills preamble' }, body];
    }
    case 'diagnostics':
    case 'mcp_resource':
    case 'relevant_memories':
    case 'task_status':
    case 'memory_update':
    case 'directory':
    case 'new_directory':
    case 'output_style':
    case 'token_usage':
    case 'budget_usd':
    case 'output_token_usage':
    case 'total_tokens_reminder':
    case 'tool_search_usage_reminder':
    case 'auto_mode':
    case 'auto_mode_exit':
    case 'agent_mention':
    case 'pdf_reference':
    case 'selected_lines_in_diff':
    case 'ultrathink_effort':
      // Rendered by the client from these fields with wording not measured here: the text the record carries.
      return [textOf(a)];
    default:
      // Unknown to 2.1.197 (newer or older clients): counted by its text rather than dropped silently.
      return [textOf(a)];
  }
}

function agentListing(a: JsonObject): Piece[] | null {
  const added = strings(a['addedLines']);
  const removed = strings(a['removedTypes']);
  const initial = a['isInitial'] === true;
  const out: Piece[][] = [];
  if (added.length > 0) {
    const head = initial ? 'Available agent types for the Agent tool:' : 'New agent types are now available for the Agent tool:';
    out.push([`${head}\n${added.join('\n')}`]);
  }
  if (removed.length > 0) {
    out.push([`The following agent types are no longer available:\n${removed.map((r) => `- ${r}`).join('\n')}`]);
    out.push([{ fixed: AMBIENT_NOTE_BYTES, what: 'ambient-context note' }]);
  }
  if (initial && a['showConcurrencyNote'] === true) {
    out.push(['When you launch multiple agents for independent work, send them in a single message with multiple tool uses so they run concurrently.']);
  }
  return sections(out);
}

function deferredTools(a: JsonObject): Piece[] | null {
  const added = strings(a['addedLines']);
  const readded = strings(a['readdedNames']);
  const removed = strings(a['removedNames']);
  const out: Piece[][] = [];
  if (added.length > 0) {
    out.push([{ fixed: 231 + 2 * TOOL_SEARCH.length, what: 'deferred-tools instructions' }, added.join('\n')]);
  }
  if (readded.length > 0) {
    const n = readded.length;
    out.push([
      `${n} deferred tool${n === 1 ? ' is' : 's are'} available again (MCP server reconnected — names announced earlier in this conversation): ${groupNames(readded)}. Load via ${TOOL_SEARCH} as before.`,
    ]);
  }
  if (removed.length > 0) {
    out.push(
      removed.length > LIST_SUMMARY_AFTER
        ? [`${removed.length} deferred tools are no longer available (MCP server disconnected): ${groupNames(removed)}. Do not search for them — ${TOOL_SEARCH} will return no match.`]
        : [`The following deferred tools are no longer available (their MCP server disconnected). Do not search for them — ${TOOL_SEARCH} will return no match:\n${removed.join('\n')}`],
    );
    out.push([{ fixed: AMBIENT_NOTE_BYTES, what: 'ambient-context note' }]);
  }
  // Servers that need authorisation or are still connecting are named with instructions not measured here.
  const waiting = [...strings(a['needsAuthMcpServers']), ...strings(a['pendingMcpServers'])];
  if (waiting.length > 0) out.push([waiting.join('\n')]);
  return sections(out);
}

/** Plan-mode instructions: the full five-phase workflow, a short reminder, or a subagent's version. */
function planMode(a: JsonObject): Piece[] {
  const path = str(a['planFilePath']) ?? '';
  const exists = a['planExists'] === true;
  if (a['isSubAgent'] === true) return ['Plan mode is active.', { fixed: (exists ? 935 : 918) - 20, what: "a subagent's plan-mode rules" }, path];
  if (str(a['reminderType']) === 'sparse') {
    const follow = str(a['customInstructions']) ? 'Follow the plan workflow described earlier.' : 'Follow 5-phase workflow.';
    return [
      `Plan mode still active (see full instructions earlier in conversation). Read-only except plan file (${path}). ${follow} End turns with AskUserQuestion (for clarifications) or ExitPlanMode (for plan approval). Never ask about plan approval via text or AskUserQuestion.`,
    ];
  }
  // Measured from the request: 421 bytes up to the plan file's path and 4416 after it for a new plan file;
  // an existing one is worded differently around the path (395 and 4459).
  return ['Plan mode is active.', { fixed: (exists ? 395 : 421) - 20, what: 'plan-mode workflow' }, path, { fixed: exists ? 4459 : 4416, what: 'plan-mode workflow' }];
}

/** A file the client re-attached (after a compaction, or an @-mention): a simulated Read call and result. */
function fileAttachment(a: JsonObject): Piece[] {
  const filename = str(a['filename']) ?? '';
  const content = isObject(a['content']) ? a['content'] : {};
  const call = `Called the Read tool with the following input: ${JSON.stringify({ file_path: filename })}`;
  const file = isObject(content['file']) ? content['file'] : {};
  let result: string;
  if (str(content['type']) === 'text' && typeof file['content'] === 'string') {
    result = numbered(file['content'], num(file['startLine']) ?? 1);
  } else {
    result = `[${str(content['type']) ?? 'content'}: ${jsonBytes(content)} bytes]`;
  }
  const out: Piece[] = [call, '\n', `Result of calling the Read tool:\n${result}`];
  // The note names the Read tool and the 2000-line cap besides the file.
  if (a['truncated'] === true) out.push('\n', { fixed: 159 + 4 + 4, what: 'truncation note' }, filename);
  return out;
}

/** The Read tool's rendering: each line prefixed with its number and a tab. */
function numbered(text: string, start: number): string {
  return text
    .split('\n')
    .map((line, i) => `${start + i}\t${line}`)
    .join('\n');
}

function queuedCommand(a: JsonObject): Piece[] | null {
  if (a['renderedByBatchHead'] === true) return null;
  const prompt = a['prompt'];
  const text = typeof prompt === 'string' ? prompt : strings(Array.isArray(prompt) ? prompt.filter(isObject).map((p) => p['text'] ?? null) : []).join('\n');
  const origin = isObject(a['origin']) ? str(a['origin']['kind']) : undefined;
  if (origin === undefined || origin === 'human' || origin === 'auto-continuation') {
    // A message typed while the model worked: wrapped with the client's note that it must be answered.
    return [{ fixed: 161, what: 'queued-message wrapper' }, text];
  }
  return [text];
}

/** The text an attachment carries: every string field, without the JSON around it. */
function textOf(a: JsonObject): string {
  const out: string[] = [];
  const walk = (v: Json | undefined, key: string): void => {
    if (typeof v === 'string') {
      if (key !== 'type' && key !== 'displayPath') out.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(a, '');
  return out.join('\n');
}
