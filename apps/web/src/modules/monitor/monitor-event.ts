import { useSelectedEvents, type SelectedEvent } from '../events/selection.store.ts';

/**
 * The event the monitor watches: the first dated event of the selection, else the first
 * selected (the template). Metrics, notifications and the status toggle follow it.
 */
export function useMonitorEvent(): { event: SelectedEvent | null; anyLive: boolean } {
  const { events } = useSelectedEvents();
  const event = events.find((e) => !e.template) ?? events[0] ?? null;
  return { event, anyLive: events.some((e) => e.eventStatus === 'live') };
}
