import { discoverFiles, describeOpenedFile, projectRoots, type DiscoveredFile } from './discover';
import { quickLook, type QuickLook } from './quick';

/**
 * Everything the index asks about an agent's files, in one place: where they live by default, which
 * files a root holds, what a file opened from anywhere is, and its first and last records. The full
 * summary (summary.ts's SummaryAccumulator) runs in the job pool (jobs.ts), the other call site.
 * Claude Code's layout is the only implementation today.
 */
export interface TranscriptFiles {
  defaultRoots(env: NodeJS.ProcessEnv, home: string): string[];
  discover(roots: readonly string[]): DiscoveredFile[];
  describeOpened(path: string): Omit<DiscoveredFile, 'root'>;
  quickLook(path: string, subagentFile: boolean): QuickLook;
}

export const claudeCodeFiles: TranscriptFiles = {
  defaultRoots: (env, home) => projectRoots(env, home),
  discover: (roots) => discoverFiles(roots),
  describeOpened: (path) => describeOpenedFile(path),
  quickLook: (path, subagentFile) => quickLook(path, subagentFile),
};
