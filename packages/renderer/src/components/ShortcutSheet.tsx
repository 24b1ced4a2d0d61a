import { useEffect, useRef, useState } from 'react';
import { useFocusTrap } from '../focus-trap';

/** Every keyboard shortcut of the window, in one place: opened with `?`, closed with Esc or its button. */
const SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: ['?'], what: 'this sheet' },
  { keys: ['/'], what: 'search the sessions' },
  { keys: ['↑', '↓', 'Enter'], what: 'move in the session list, open one' },
  { keys: ['n', 'N'], what: 'next / previous dead segment (largest first)' },
  { keys: ['←', '→', '↑', '↓'], what: 'move between treemap blocks' },
  { keys: ['Enter', 'Space'], what: 'select the block (or drill into a group)' },
  { keys: ['Esc'], what: 'up a level in the treemap; close the drawer or a dialog' },
  { keys: ['f'], what: 'fork a cleaned session…' },
];

export function ShortcutSheet() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key !== '?' || e.metaKey || e.ctrlKey || e.altKey) return;
      if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('[role=dialog]')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return open ? <Sheet onClose={() => setOpen(false)} /> : null;
}

function Sheet({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLElement>(null);
  useFocusTrap(ref, onClose);
  return (
    <div className="sheet-backdrop" role="presentation" onClick={onClose}>
      <section ref={ref} className="sheet shortcuts" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" tabIndex={-1} data-testid="shortcut-sheet" onClick={(e) => e.stopPropagation()}>
        <div className="sheet-head">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button type="button" onClick={onClose} data-autofocus>
            Close
          </button>
        </div>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.what}>
                <th scope="row">
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? ' ' : ''}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </th>
                <td>{s.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
