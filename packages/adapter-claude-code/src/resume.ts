import type { ResumeInstruction, ResumePlace } from '@glassbox/core';

/**
 * How a person resumes a Claude Code session: the client looks for `<id>.jsonl` only in the projects
 * folder of the directory it runs in, so the command changes into the project first.
 */
export function resumeCommand(sessionRef: string, cwd: string | null): string {
  // Every part quoted: an id or path from a copied archive could hold `$(…)`, and this line is pasted into a shell.
  return cwd ? `cd ${shellQuote(cwd)} && claude --resume ${shellQuote(sessionRef)}` : `claude --resume ${shellQuote(sessionRef)}`;
}

/**
 * From the recorded working directory the id is enough. From a mapped folder (a moved checkout) the
 * session is named by its file, which the client accepts from anywhere; by id it would not find it
 * there. When neither folder exists here the file is named too, and the note says to run the command
 * from wherever the project's files are now (the client opens a session named by its file from any
 * folder; the folder only decides where its tools run): a line to copy, not a dead end.
 */
export function resumeInstruction(p: ResumePlace): ResumeInstruction {
  if (!p.cwd) return { command: resumeCommand(p.sessionId, null), folder: null, note: 'no working directory is recorded: run it from the project folder' };
  if (p.cwdExists) return { command: resumeCommand(p.sessionId, p.cwd), folder: p.cwd, note: null };
  const mapped = p.mapped && p.mapped !== p.cwd ? p.mapped : null;
  if (mapped && p.mappedExists) {
    return {
      command: resumeCommand(p.sessionPath, mapped),
      folder: mapped,
      note: `${p.cwd} is not on this machine; from the folder it is mapped to, the session is named by its file (Claude Code finds a session id only under the folder it ran in)`,
    };
  }
  return {
    command: resumeCommand(p.sessionPath, null),
    folder: null,
    note: mapped
      ? `neither ${p.cwd} nor the folder it is mapped to (${mapped}) is on this machine: run this from the folder that holds the project now`
      : `${p.cwd} is not on this machine: run this from the folder that holds the project now`,
  };
}

/** A word the shell takes as it is: plain characters left bare, anything else (a leading `-` too) in single quotes. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=][A-Za-z0-9_./:@%+=-]*$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
