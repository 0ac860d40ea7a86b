import { useSyncExternalStore } from 'react';
import type { EventStatus } from '@stadiumcam/contract';

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

export function setSelectedEvents(events: SelectedEvent[]): void {
  selected = events;
  listeners.forEach((l) => l());
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
