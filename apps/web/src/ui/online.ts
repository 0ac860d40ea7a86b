import { useSyncExternalStore } from 'react';

const subscribe = (cb: () => void) => {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
};

/** The browser's network state; react-query refetches by itself when it comes back. */
export const useOnline = () => useSyncExternalStore(subscribe, () => navigator.onLine);
