// Types of entry.mjs (the launcher's choice of entry), for the tests that import it.
export type Entry = { kind: 'bundle'; path: string } | { kind: 'source'; path: string; why: string };
export function chooseEntry(cliDir: string, env?: NodeJS.ProcessEnv): Entry;
