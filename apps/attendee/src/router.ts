import { useEffect, useState } from 'react';
import { reportPageView } from './api.ts';

/** Screens by hash (`#/seat`, `#/photo/<id>`): the phone's Back button walks back through them. */
export type Route =
  | { name: 'landing' }
  | { name: 'seat' }
  | { name: 'queue' }
  | { name: 'photo'; id: string }
  | { name: 'share'; id: string }
  | { name: 'album' };

export function parseRoute(hash: string): Route {
  const [, name = '', id = ''] = hash.replace(/^#/, '').split('/');
  if ((name === 'photo' || name === 'share') && id) return { name, id: decodeURIComponent(id) };
  if (name === 'seat' || name === 'queue' || name === 'album') return { name };
  return { name: 'landing' };
}

export const go = (path: string) => {
  location.hash = `#/${path}`;
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The page name a screen is counted under (the landing screen is `welcome`, as the simulator's). */
export const pageName = (route: Route): string => (route.name === 'landing' ? 'welcome' : route.name);

let lastView = '';

/**
 * One page view per screen change (first-party web analytics, DESIGN §12): reported here, once
 * for every screen the router shows, not by the screens themselves. Nothing is reported
 * without an event or in the console's previews.
 */
export function usePageViews(slugDate: string | undefined, route: Route, enabled: boolean): void {
  const page = pageName(route);
  const key = route.name === 'photo' || route.name === 'share' ? `${page}/${route.id}` : page;
  useEffect(() => {
    if (!slugDate || !enabled) return;
    const view = `${slugDate} ${key}`;
    // React's development double effects and re-renders on the same screen count once.
    if (view === lastView) return;
    lastView = view;
    reportPageView(slugDate, page);
  }, [slugDate, key, page, enabled]);
}
