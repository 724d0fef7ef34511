import { type ReactNode, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  type Location,
  UNSAFE_LocationContext as LocationContext,
  UNSAFE_RouteContext as RouteContext,
  useLocation,
  useMatches,
  useNavigationType,
  useOutlet,
} from 'react-router';
import { useMediaQuery } from '../../lib/use-media-query';

/** How long the old page takes to fade out, and the new one to fade in (styles.css). */
export const PAGE_FADE_MS = 150;

interface Frame {
  key: string;
  outlet: ReactNode;
  location: Location;
}

/**
 * Which page this layout shows: the path its child route matched. A change further down (a
 * nested tab's route) or of the query string (?tab=) is not a new page.
 */
function usePageKey(): string {
  // The routes down to this layout; react-router has no public hook for a route's own depth.
  const own = useContext(RouteContext).matches.length;
  return useMatches()[own]?.pathname ?? '';
}

/**
 * The layout's outlet with the spec's out-in page transition: on a route change the old page
 * fades out, and only then does the new one fade in. Whoever asks the system for less motion
 * (and the e2e suite, which does) gets the new page at once.
 */
export function PageTransition() {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const key = usePageKey();
  const reduced = useMediaQuery('(prefers-reduced-motion: reduce)');
  // The page whose turn it is on screen; until the old one has faded out, it stays the old one.
  const [shownKey, setShownKey] = useState(key);
  // That page as it was last drawn: what fades out when the route changes.
  const shown = useRef<Frame>({ key, outlet, location });
  if (reduced && shownKey !== key) setShownKey(key);
  const leaving = shownKey !== key;

  useLayoutEffect(() => {
    if (!leaving) shown.current = { key, outlet, location };
  });
  useEffect(() => {
    if (!leaving) return;
    const timer = setTimeout(() => setShownKey(key), PAGE_FADE_MS);
    return () => clearTimeout(timer);
  }, [leaving, key]);

  if (leaving) {
    const old = shown.current;
    // The old page keeps the location it was drawn for while it fades: it must not redraw for
    // (or redirect from) the new one. It takes no clicks and no focus.
    return (
      <div key={old.key} className="lr-page-fade is-leaving" inert>
        <LocationContext.Provider value={{ location: old.location, navigationType }}>
          {old.outlet}
        </LocationContext.Provider>
      </div>
    );
  }
  return (
    <div key={key} className={reduced ? 'lr-page-fade' : 'lr-page-fade is-entering'}>
      {outlet}
    </div>
  );
}
