/**
 * The composition root: the one place that names the agents Glassbox supports. The store, the host,
 * the CLI and the desktop app receive the registry made here and never import an adapter themselves.
 * Adding an agent is one adapter package and one line below (see CONTRIBUTING.md).
 */
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { claudeCodeLocator } from '@glassbox/adapter-claude-code/node';
import { codexFormat } from '@glassbox/adapter-codex';
import { codexLocator } from '@glassbox/adapter-codex/node';
import { geminiFormat } from '@glassbox/adapter-gemini';
import { geminiLocator } from '@glassbox/adapter-gemini/node';
import { AgentRegistry, type Agent } from '@glassbox/core';

const CLAUDE_CODE_AGENT: Agent = { format: claudeCodeFormat, locator: claudeCodeLocator };
const CODEX_AGENT: Agent = { format: codexFormat, locator: codexLocator };
const GEMINI_AGENT: Agent = { format: geminiFormat, locator: geminiLocator };

/** Every supported agent, most common first (the first also reads files no adapter recognises). */
export function defaultAgents(): AgentRegistry {
  return new AgentRegistry([CLAUDE_CODE_AGENT, CODEX_AGENT, GEMINI_AGENT]);
}
