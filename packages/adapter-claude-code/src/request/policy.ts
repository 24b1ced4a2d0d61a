import { findModel, type Block, type ChainNode, type ModelChoice, type RequestPolicy } from '@glassbox/core';
import { CLAUDE_MODELS } from '../models/catalogue';
import { CLIENTS, NEWEST_CLIENT, clientRules, modelFamily, remindersAsSystemMessages, retiredBy, whyNotResumable, type ClientRules } from './models';

/**
 * The model of the next request when none is named, as a client version restores it on resume: the
 * model of the last real reply on the branch (2.1.33x: the model it stood in for, or — when its own
 * catalogue does not know the reply's model — the model the last `model` attachment names), unless
 * the client will not resume on it; then its default.
 */
export function resumeModel(window: readonly ChainNode[], now: Date, rules: ClientRules = NEWEST_CLIENT): ModelChoice {
  const client = `Claude Code ${rules.version}`;
  for (let i = window.length - 1; i >= 0; i--) {
    const n = window[i];
    if (!n || n.kind !== 'assistant' || n.synthetic || n.notSent || !n.model) continue;
    const own = (rules.restoresNamedModels ? n.inPlaceOfModel : undefined) ?? n.model;
    const why = whyNotResumable(own, now, rules);
    if (why === null) return { model: own, basis: `the session's last model, as ${client} restores it on resume` };
    const named = rules.restoresNamedModels ? lastNamedModel(window) : undefined;
    if (named !== undefined && !rules.families.has(modelFamily(own))) {
      const retired = retiredBy(modelFamily(named), now, rules);
      if (retired === null) return { model: named, basis: `the model the session's last model attachment names, as ${client} restores it (its catalogue does not know ${own})` };
      return { model: rules.defaultModel, basis: `${client}'s default: the session's model ${named} is ${retired}, so the client does not restore it` };
    }
    return { model: rules.defaultModel, basis: `${client}'s default: the session's model ${own} is ${why}, so the client does not restore it` };
  }
  return { model: rules.defaultModel, basis: `${client}'s default (no reply in the window names a model)` };
}

/** The model the last `model` attachment of the window names (2.1.33x writes one when the model changes). */
function lastNamedModel(window: readonly ChainNode[]): string | undefined {
  for (let i = window.length - 1; i >= 0; i--) {
    const named = window[i]?.namesModel;
    if (named) return named.replace(/\[[0-9]+m\]$/i, '');
  }
  return undefined;
}

/** `<system-reminder>\n` + `\n</system-reminder>` around the text, and the blank line that joins it to the result. */
const JOINED_REMINDER_OVERHEAD = 18 + 19 + 2;

/** Reminders of the todo and task tools: 2.1.33x renders them (when it did not record them) only for the older models. */
const TODO_REMINDERS = new Set(['task_reminder', 'todo_reminder']);

export const CLAUDE_CODE_REQUEST_POLICY: RequestPolicy = {
  clients: CLIENTS.map((c) => c.version),
  defaultModel: (window, now, client) => resumeModel(window, now, clientRules(client)),
  joinedReminderOverhead: (model) => (remindersAsSystemMessages(model) ? null : JOINED_REMINDER_OVERHEAD),
  notSentOn: (node: ChainNode, block: Block, model: string | null, client: string | undefined) => {
    if (node.kind !== 'attachment' || !node.subtype) return null;
    const rules = clientRules(client);
    if (block.recordedAsSent && rules.attachmentTypes && !rules.attachmentTypes.has(node.subtype)) {
      return `a ${node.subtype.replace(/_/g, ' ')} attachment: Claude Code ${rules.version} does not know the type (it ignores the text a newer client recorded)`;
    }
    if (block.recordedAsSent || !TODO_REMINDERS.has(node.subtype)) return null;
    if (!rules.todoRemindersOnlyOnOlderModels || model === null || !remindersAsSystemMessages(model)) return null;
    return `a ${node.subtype.replace(/_/g, ' ')}: Claude Code ${rules.version} offers the todo tools, and reminds of them, only on older models`;
  },
  keepsReasoning: (model) => findModel(CLAUDE_MODELS, model)?.keepsReasoning ?? true,
};
