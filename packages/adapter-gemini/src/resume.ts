import type { ResumeInstruction, ResumePlace } from '@glassbox/core';

function quote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `gemini --resume <id>` lists the chats of the project the current folder is, and picks the one with that id. */
export function resumeCommand(sessionId: string, cwd: string | null): string {
  const cmd = `gemini --resume ${quote(sessionId)}`;
  return cwd ? `cd ${quote(cwd)} && ${cmd}` : cmd;
}

/**
 * Gemini CLI finds a session only among the chats of the project it runs in — the folder under
 * ~/.gemini/tmp named by the project root's slug (0.29+) or hash (≤0.28). A mapped folder is another
 * project to it: the command needs the recorded root, and there is none to offer when it is not here.
 */
export function resumeInstruction(place: ResumePlace): ResumeInstruction {
  if (place.cwd !== null && place.cwdExists) return { command: resumeCommand(place.sessionId, place.cwd), folder: place.cwd, note: null };
  if (place.cwd === null) return { command: resumeCommand(place.sessionId, null), folder: null, note: 'the chat does not say which project it belongs to: run the command from that project’s folder' };
  return {
    command: null,
    folder: null,
    note: `${place.cwd} is not on this machine; Gemini CLI looks a session up in the chats of the folder it runs in, so it cannot resume this one from ${place.mappedExists && place.mapped ? place.mapped : 'another folder'} without copying the chat into that project's chats folder`,
  };
}
