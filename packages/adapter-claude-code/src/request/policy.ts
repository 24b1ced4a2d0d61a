import type { ChainNode, ModelChoice, RequestPolicy } from '@glassbox/core';
import { CLIENT_DEFAULT_MODEL, remindersAsSystemMessages, whyNotResumable } from './models';

/**
 * The model of the next request when none is named: the model of the last real reply on the branch,
 * unless the client no longer resumes on it; then its default.
 */
export function resumeModel(window: readonly ChainNode[], now: Date): ModelChoice {
  for (let i = window.length - 1; i >= 0; i--) {
    const n = window[i];
    if (!n || n.kind !== 'assistant' || n.synthetic || n.notSent || !n.model) continue;
    const why = whyNotResumable(n.model, now);
    if (why === null) return { model: n.model, basis: `the session's last model, as Claude Code restores it on resume` };
    return { model: CLIENT_DEFAULT_MODEL, basis: `Claude Code's default: the session's model ${n.model} is ${why}, so the client does not restore it` };
  }
  return { model: CLIENT_DEFAULT_MODEL, basis: "Claude Code's default (no reply in the window names a model)" };
}

/** `<system-reminder>\n` + `\n</system-reminder>` around the text, and the blank line that joins it to the result. */
const JOINED_REMINDER_OVERHEAD = 18 + 19 + 2;

export const CLAUDE_CODE_REQUEST_POLICY: RequestPolicy = {
  defaultModel: resumeModel,
  joinedReminderOverhead: (model) => (remindersAsSystemMessages(model) ? null : JOINED_REMINDER_OVERHEAD),
};
