/**
 * A recorded working directory on this machine: the folder it is mapped to (the mapping of the
 * longest recorded folder that contains it), else itself. The same rule for the list, the window,
 * the wizard and the CLI, so they show the same figures.
 */
export function folderFor(cwd: string | null, mappings: Readonly<Record<string, string>>): string | null {
  if (!cwd) return null;
  const exact = mappings[cwd];
  if (exact) return exact;
  let best: string | null = null;
  for (const key of Object.keys(mappings)) {
    if (cwd.startsWith(key + '/') && (!best || key.length > best.length)) best = key;
  }
  return best ? `${mappings[best] as string}/${cwd.slice(best.length + 1)}` : cwd;
}
