import { isObject, str, type JsonObject } from '../record-types';
import { relativeLabel } from '../tool-ops';

/** What an attachment carries, for display: the hook, the file, the listing… (not its record type). */
export function labelFor(type: string, a: JsonObject, cwd: string | null): string {
  const rel = (p: string | undefined): string => (p ? relativeLabel(p, cwd) : '');
  switch (type) {
    case 'hook_success':
    case 'hook_additional_context':
    case 'hook_blocking_error':
    case 'hook_stopped_continuation':
    case 'hook_cancelled':
    case 'hook_non_blocking_error':
    case 'hook_error_during_execution':
    case 'hook_system_message':
    case 'hook_permission_decision': {
      const name = str(a['hookName']) ?? str(a['hookEvent']) ?? 'hook';
      return type === 'hook_additional_context' ? `${name} hook context` : `${name} hook`;
    }
    case 'nested_memory': {
      const c = isObject(a['content']) ? a['content'] : {};
      return `memory ${rel(str(c['path']) ?? str(a['path']))}`;
    }
    case 'file':
    case 'new_file':
      return `file ${rel(str(a['filename']))}`;
    case 'compact_file_reference':
    case 'edited_text_file':
    case 'opened_file_in_ide':
    case 'selected_lines_in_ide':
    case 'pdf_reference':
      return `${type.replace(/_/g, ' ')} ${rel(str(a['filename']))}`;
    case 'plan_file_reference':
      return `plan file ${rel(str(a['planFilePath']))}`;
    case 'skill_listing':
      return 'skill listing';
    case 'agent_listing_delta':
      return 'agent listing';
    case 'deferred_tools_delta':
      return 'deferred tools';
    case 'mcp_instructions_delta':
      return 'MCP instructions';
    case 'queued_command':
      return 'queued message';
    default:
      return type.replace(/_/g, ' ');
  }
}
