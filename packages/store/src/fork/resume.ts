import { existsSync, statSync } from 'node:fs';
import { resumeFrom, type AgentFormat, type ResumeInstruction } from '@glassbox/core';

export type { ResumeInstruction };

export interface ResumeInput {
  /** The working directory recorded in the session. */
  cwd: string | null;
  /** The folder it is mapped to on this machine (null or equal to cwd: none). */
  mapped: string | null;
  sessionId: string;
  sessionPath: string;
  /** The agent whose session it is: its own rule says how to resume it from a folder. */
  format: AgentFormat;
  isDir?: (path: string) => boolean;
}

/** How to resume a session here: the agent's rule, told which of its folders exist on this machine. */
export function resumeInstruction(input: ResumeInput): ResumeInstruction {
  const isDir = input.isDir ?? defaultIsDir;
  const mapped = input.mapped && input.mapped !== input.cwd ? input.mapped : null;
  return resumeFrom(input.format, {
    sessionId: input.sessionId,
    sessionPath: input.sessionPath,
    cwd: input.cwd,
    cwdExists: input.cwd !== null && isDir(input.cwd),
    mapped,
    mappedExists: mapped !== null && isDir(mapped),
  });
}

function defaultIsDir(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}
