import { useSyncExternalStore } from 'react';
import type { EventStatus } from '@stadiumcam/contract/lite';

/** What every page needs to know of a selected event. */
export type SelectedEvent = {
  _id: string;
  slugDate: string;
  title: string;
  template: boolean;
  eventStatus: EventStatus;
  timezone: string;
  gameDate: string | null;
  startTime: string | null;
  endTime: string | null;
};

/**
 * The one app-wide event selection that every page reads (events issue #3 fills it from the
 * current event and the event selector, and joins the socket rooms of the selection).
 */
let selected: SelectedEvent[] = [];
const listeners = new Set<() => void>();

const SAVED_KEY = 'stadiumcam.selectedEvents';

export function setSelectedEvents(events: SelectedEvent[]): void {
  selected = events;
  // Kept per tab, so a reload comes back to the same events; an empty selection is a logout.
  if (events.length) sessionStorage.setItem(SAVED_KEY, events.map((e) => e.slugDate).join(','));
  else sessionStorage.removeItem(SAVED_KEY);
  listeners.forEach((l) => l());
}

/** The slugDates to start from: `?events=a,b` in the URL, else this tab's last selection. */
export function restoredSelection(): string[] {
  const fromUrl = new URLSearchParams(window.location.search).get('events');
  const saved = fromUrl ?? sessionStorage.getItem(SAVED_KEY) ?? '';
  return saved.split(',').filter(Boolean);
}

export function useSelectedEvents(): { events: SelectedEvent[]; slugDates: string[] } {
  const events = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => selected,
  );
  return { events, slugDates: events.map((e) => e.slugDate) };
}
