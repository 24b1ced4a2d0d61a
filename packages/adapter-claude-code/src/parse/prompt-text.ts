/**
 * Text the harness writes into user records: command output echoes, caveats, interruptions. A slash
 * command or `!` shell line the person typed (`<command-name>`, `<bash-input>`) is their prompt.
 */
export function isHarnessText(text: string): boolean {
  return (
    text.startsWith('<local-command-') ||
    text.startsWith('<bash-stdout>') ||
    text.startsWith('<bash-stderr>') ||
    text.startsWith('[Request interrupted')
  );
}

/** `<command-name>/x</command-name><command-args>y</command-args>` reads as `/x y`. */
export function displayPrompt(text: string): string {
  if (!text.startsWith('<command-')) return text;
  const name = /<command-name>([^<]*)<\/command-name>/.exec(text)?.[1]?.trim();
  const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim();
  if (!name) return text;
  const slash = name.startsWith('/') ? name : `/${name}`;
  return args ? `${slash} ${args}` : slash;
}
