import { useSyncExternalStore } from 'react';

export type LightboxTab = 'all' | 'user';

/**
 * What the lightbox shows. It lives outside the router because `/snapshot/:id` opens it and
 * then moves on to `/` (spec 1 §2), and the album opens it over itself.
 */
export type LightboxState = {
  snapshotId: string;
  /** Events of the "All Photos" strip; empty = the photo's own event (deep link). */
  slugDates: string[];
  tab: LightboxTab;
  /** Show the overlayed photo (the album's "Show Overlays"). */
  overlays: boolean;
} | null;

let state: LightboxState = null;
const listeners = new Set<() => void>();

function set(next: LightboxState) {
  state = next;
  listeners.forEach((l) => l());
}

export function openLightbox(snapshotId: string, slugDates: string[] = [], overlays = false): void {
  set({ snapshotId, slugDates, tab: 'all', overlays });
}

export function closeLightbox(): void {
  set(null);
}

export function setLightboxSnapshot(snapshotId: string): void {
  if (state) set({ ...state, snapshotId });
}

export function setLightboxTab(tab: LightboxTab): void {
  if (state) set({ ...state, tab });
}

export function setLightboxOverlays(overlays: boolean): void {
  if (state) set({ ...state, overlays });
}

export function useLightbox(): LightboxState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
