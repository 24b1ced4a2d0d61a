/**
 * What each bundled sample shows, for a person who has never read a transcript: the samples' own
 * manifests describe how they were recorded (client flags, token thresholds), which is for tests.
 * A sample missing here is offered with the first sentence of its manifest.
 */
export const SAMPLE_BLURBS: Readonly<Record<string, { title: string; description: string }>> = {
  '01-superseded-reads': { title: 'Files read again while being edited', description: 'The same file is read several times as it changes: the older copies are dead weight in the context.' },
  '02-gone-drift-errors': { title: 'Files deleted or changed after being read', description: 'What the agent read no longer matches the disk: one file was deleted, another changed since.' },
  '03-large-outputs': { title: 'Very large outputs', description: 'Long command output and big file reads, some of them kept outside the transcript.' },
  '04-subagent-compact-multiturn': { title: 'A helper agent and a /compact', description: 'Four prompts, a helper agent with its own transcript, and a /compact that summarises the work so far.' },
  '05-autocompact': { title: 'An automatic compaction in the middle of work', description: 'The context filled up during a run of tool calls and the client summarised it on its own.' },
  '06-fork-session': { title: 'A session forked by its client', description: 'The history copied into a new session, which goes on from there.' },
  '07-interactive-tui': { title: 'An interactive session', description: 'Several prompts typed in the full-screen client, an edit made between them, and a helper agent.' },
  '08-duplicates-and-ranges': { title: 'The same output twice', description: 'Command output repeated word for word, and a file read in parts.' },
  '09-hooks-memory-todos': { title: 'Hooks, project memory and a to-do list', description: 'CLAUDE.md files, hooks that add context, and the agent’s own to-do list.' },
  '10-mcp-plan-mode': { title: 'An MCP server and plan mode', description: 'Tools from an MCP server, looked up when needed, and a plan approved before the work.' },
  '11-model-switch': { title: 'Two models in one session', description: 'The first prompt runs on one model, the next on another.' },
  '12-retired-model': { title: 'A session on a retired model', description: 'It ran on a model the client no longer offers: resuming it moves to another one.' },
  '13-api-error': { title: 'Replies the API refused', description: 'An error in the middle of a run of tool calls, and the session resumed after it.' },
  '14-interrupted-tool': { title: 'Stopped while a tool ran', description: 'The session ends on a tool call that never got its answer.' },
  '15-autocompact-twice': { title: 'Compacted automatically twice', description: 'A long run of tool calls, summarised by the client two times.' },
  '16-compact-instructions': { title: 'A /compact told what to keep', description: 'A manual compaction with instructions, then more work after it.' },
  '17-subagent-compact': { title: 'A helper agent compacted on its own', description: 'A helper agent whose own conversation filled up and was summarised.' },
  '18-compaction-kept-dropped': { title: 'What a summary keeps and drops', description: 'Reads, a failing command and edits, then a /compact told to keep the error.' },
  '19-newest-client-window': { title: 'A recent client: checkpoints, hooks and memory', description: 'A newer Claude Code with file checkpoints, hooks and CLAUDE.md files.' },
  '20-newest-client-models': { title: 'A recent client switching models', description: 'A newer Claude Code moving between models, with thinking on.' },
  '21-newest-client-agents-tools': { title: 'A recent client: background agents', description: 'A helper agent that runs in the background while the session goes on.' },
  '22-newest-client-tui': { title: 'A recent client, interactive', description: 'Prompts typed in a newer Claude Code’s full-screen client.' },
  '23-newest-client-autocompact': { title: 'A recent client’s automatic compaction', description: 'A newer Claude Code summarising its context on its own in the middle of work.' },
};
