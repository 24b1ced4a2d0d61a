import { useEffect, useState } from 'react';

/**
 * The width below which the window is narrow: the header is compact and the inspector is a drawer.
 * The same width as the CSS's media queries, so the components and the styles switch together.
 */
const NARROW = '(max-width: 1000px)';

/** Whether the window is narrow now, following the window as it is resized. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const on = () => setNarrow(query.matches);
    query.addEventListener('change', on);
    return () => query.removeEventListener('change', on);
  }, []);
  return narrow;
}
