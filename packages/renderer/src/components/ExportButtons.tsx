import { useState } from 'react';
import type { ExportFormatView } from '@glassbox/contract';
import { useApp } from '../store';

const FORMAT_NAME: Record<ExportFormatView, string> = { md: 'Markdown', html: 'HTML' };

/**
 * Export the session: the host writes Markdown or a self-contained HTML file (dead segments marked),
 * and the window hands it to the browser as a download, so nothing is written beside the transcript.
 */
export function ExportButtons({ path }: { path: string }) {
  const api = useApp((s) => s.api);
  const [busy, setBusy] = useState<ExportFormatView | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const run = async (format: ExportFormatView) => {
    setBusy(format);
    setNote(null);
    const r = await api.invoke('session:export', { path, format });
    setBusy(null);
    if (!r.ok) return setNote(r.error.message);
    const url = URL.createObjectURL(new Blob([r.value.text], { type: `${r.value.mime};charset=utf-8` }));
    const a = document.createElement('a');
    a.href = url;
    a.download = r.value.fileName;
    a.click();
    // The download has its own copy once started.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setNote(`Saved ${r.value.fileName}`);
  };
  return (
    <span className="conv-export" role="group" aria-label="Export the session">
      <span className="dim">Export</span>
      {(['md', 'html'] as const).map((f) => (
        <button key={f} type="button" onClick={() => void run(f)} disabled={busy !== null} title={busy !== null ? 'An export is being made' : `The whole session as ${FORMAT_NAME[f]}, dead segments marked`} data-testid={`export-${f}`}>
          {busy === f ? `${FORMAT_NAME[f]}…` : FORMAT_NAME[f]}
        </button>
      ))}
      {note ? (
        <span className="dim" role="status" data-testid="export-note">
          {note}
        </span>
      ) : null}
    </span>
  );
}
