import { useEffect, useState } from 'react';
import type { RetentionInfo } from '@glassbox/contract';
import { useApp } from '../../store';

/** The clean-up rules in force and the auto-keep setting, from the host (once per mount). */
function useRetentionInfo(): [RetentionInfo | null, (i: RetentionInfo) => void] {
  const api = useApp((s) => s.api);
  const [info, setInfo] = useState<RetentionInfo | null>(null);
  useEffect(() => {
    void api.invoke('retention:info', {}).then((r) => r.ok && setInfo(r.value));
  }, [api]);
  return [info, setInfo];
}

/** The setting "keep every session automatically" (saved by the host, which does the keeping). */
export function AutoKeepToggle() {
  const api = useApp((s) => s.api);
  const [info, setInfo] = useRetentionInfo();
  if (!info) return null;
  return (
    <label
      className="check auto-keep"
      title={`Glassbox keeps each session in its archive (${info.archive.root}) once it has been idle for a while, again after it changed, and before its client deletes it.`}
    >
      <input
        type="checkbox"
        checked={info.autoKeep}
        data-testid="auto-keep"
        onChange={(e) => {
          const enabled = e.target.checked;
          // Shown at once; the host's answer (the saved setting) replaces it.
          setInfo({ ...info, autoKeep: enabled });
          void api.invoke('retention:auto-keep', { enabled }).then((r) => setInfo(r.ok ? r.value : info));
        }}
      />{' '}
      keep every session automatically
    </label>
  );
}

/**
 * Once per run, the clean-up rules worth a warning: a very short period, a setting some client versions
 * misread, a settings file that could not be read (its default assumed).
 */
export function RetentionWarning() {
  const [info] = useRetentionInfo();
  const [dismissed, setDismissed] = useState(false);
  const warnings = info?.folders.flatMap((f) => [...(f.warning ? [f.warning] : []), ...f.problems]) ?? [];
  if (warnings.length === 0 || dismissed) return null;
  return (
    <div className="notice error retention-warning" role="alert" data-testid="retention-warning">
      <div>
        {warnings.map((w) => (
          <div key={w}>
            <strong>{w}</strong>
          </div>
        ))}
      </div>
      <button type="button" className="close" onClick={() => setDismissed(true)} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
