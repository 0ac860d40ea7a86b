import { useEffect, useState } from 'react';

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
