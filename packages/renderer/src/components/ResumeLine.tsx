import { useState } from 'react';
import { visibleText } from '@glassbox/core';

/** A resume command to paste, with its Copy button and the note on where to run it (or the note alone when there is no command). */
export function ResumeLine({ command, note }: { command: string | null; note: string | null }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="resume-line">
      {command ? (
        <div className="cmd">
          <code data-testid="resume-line-command">{visibleText(command)}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(command).then(() => setCopied(true), () => setCopied(false))} aria-label={copied ? 'Copied' : 'Copy the resume command'}>
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      ) : null}
      {note ? <p className={command ? 'dim small' : 'warn'}>{visibleText(note)}</p> : null}
    </div>
  );
}
