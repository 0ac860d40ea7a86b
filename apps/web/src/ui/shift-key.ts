import { useSyncExternalStore } from 'react';

/** Global Shift flag (spec 1 §2), used for range selection. */
let shift = false;
const listeners = new Set<() => void>();
const set = (v: boolean) => {
  if (v === shift) return;
  shift = v;
  listeners.forEach((l) => l());
};
if (typeof window !== 'undefined') {
  window.addEventListener('keydown', (e) => set(e.shiftKey));
  window.addEventListener('keyup', (e) => set(e.shiftKey));
  window.addEventListener('blur', () => set(false));
}

export const isShiftHeld = () => shift;
export const useShiftKey = () =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => shift,
  );
