import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  MSG,
  eventsRoutes,
  type EventCreate,
  type EventField,
  type EventMetrics,
  type EventPart,
  type EventStatus,
  type EventUpdate,
} from '@stadiumcam/contract/lite';
import { ApiError, api } from '../../ui/api.ts';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { getConsoleSocket, useSocketEvent } from '../../ui/socket.ts';
import { useSession } from '../auth/session.hooks.ts';
import { restoredSelection, setSelectedEvents, useSelectedEvents, type SelectedEvent } from './selection.store.ts';

/** Every events query starts with this key; 'monitor event updated' invalidates them. */
export const EVENTS_KEY = ['events'] as const;
const LIST_KEY = [...EVENTS_KEY, 'list'] as const;
const CURRENT_KEY = [...EVENTS_KEY, 'current'] as const;
const eventKey = (slugDate: string) => [...EVENTS_KEY, 'one', slugDate] as const;
const metricsKey = (slugDate: string) => [...EVENTS_KEY, 'metrics', slugDate] as const;

/** The list fields of spec 1 §7. */
const LIST_FIELDS: EventField[] = [
  '_id',
  'template',
  'slug',
  'slugDate',
  'eventStatus',
  'startTime',
  'endTime',
  'gameDate',
  'title',
  'overlays',
  'timezone',
  'availableLanguages',
];

/** A list item with the fields the console relies on. */
export type EventItem = SelectedEvent & { slug: string };

const toItem = (e: EventPart): EventItem => ({
  _id: e._id,
  slug: e.slug ?? '',
  slugDate: e.slugDate ?? '',
  title: e.title ?? '',
  template: e.template ?? false,
  eventStatus: e.eventStatus ?? 'pre',
  timezone: e.timezone ?? '',
  gameDate: e.gameDate ?? null,
  startTime: e.startTime ?? null,
  endTime: e.endTime ?? null,
});

export const toSelected = ({ slug: _slug, ...e }: EventItem): SelectedEvent => e;

/** All events, the template included, sorted by game date (server order). */
export function useEventList() {
  return useQuery({
    queryKey: LIST_KEY,
    queryFn: async () => (await api(eventsRoutes.list, { query: { fields: LIST_FIELDS } })).map(toItem),
  });
}

const fetchCurrent = async () => toItem(await api(eventsRoutes.current, { query: { fields: LIST_FIELDS } }));

/** The current event (DESIGN §6). */
export function useCurrentEvent() {
  return useQuery({ queryKey: CURRENT_KEY, queryFn: fetchCurrent });
}

/** One event with all its fields (promotions included). */
export function useEvent(slugDate: string | undefined) {
  return useQuery({
    queryKey: eventKey(slugDate ?? ''),
    queryFn: () => api(eventsRoutes.get, { params: { slugDate: slugDate ?? '' } }),
    enabled: !!slugDate,
  });
}

const invalidateEvents = (qc: QueryClient) =>
  qc.invalidateQueries({ queryKey: EVENTS_KEY, predicate: (q) => q.queryKey[1] !== 'metrics' });

/**
 * Keeps the app-wide selection alive (mounted once, by the header): the current event when
 * the session starts; fresh copies when the list changes (status, times, deletion); the
 * socket in the selected events' rooms, again after every reconnect; and the events queries
 * invalidated when another console changes an event.
 */
export function useEventSelectionSync(): void {
  const qc = useQueryClient();
  const { user } = useSession();
  const current = useCurrentEvent();
  const list = useEventList();
  const { events: selected, slugDates } = useSelectedEvents();
  const startedFor = useRef<string | null>(null);

  // The session starts on the selection of the URL (`?events=`, a copied album link) or of
  // this tab before a reload, when those events still exist; else on the current event.
  useEffect(() => {
    if (!user || !current.data || !list.data || startedFor.current === user._id) return;
    startedFor.current = user._id;
    const bySlug = new Map(list.data.map((e) => [e.slugDate, e]));
    const kept = restoredSelection().flatMap((slug) => {
      const e = bySlug.get(slug);
      return e ? [toSelected(e)] : [];
    });
    setSelectedEvents(kept.length ? kept : [toSelected(current.data)]);
  }, [user, current.data, list.data]);

  // A new session (another login) must not inherit the previous selection.
  useEffect(
    () => () => {
      startedFor.current = null;
      setSelectedEvents([]);
    },
    [],
  );

  useEffect(() => {
    if (!list.data || !selected.length) return;
    const bySlug = new Map(list.data.map((e) => [e.slugDate, e]));
    const fresh = selected.flatMap((s) => {
      const e = bySlug.get(s.slugDate);
      return e ? [toSelected(e)] : [];
    });
    if (!fresh.length) {
      // Every selected event is gone (deleted): fall back to the current event.
      void qc
        .fetchQuery({ queryKey: CURRENT_KEY, queryFn: fetchCurrent })
        .then((e) => setSelectedEvents([toSelected(e)]));
      return;
    }
    if (JSON.stringify(fresh) !== JSON.stringify(selected)) setSelectedEvents(fresh);
  }, [list.data, selected, qc]);

  const rooms = slugDates.join('\n');
  useEffect(() => {
    const socket = getConsoleSocket();
    const send = () => socket.emit('select events', rooms ? rooms.split('\n') : []);
    if (socket.connected) send();
    socket.on('connect', send);
    return () => {
      socket.off('connect', send);
    };
  }, [rooms]);

  useSocketEvent('monitor event updated', () => {
    void invalidateEvents(qc);
  });
}

/**
 * The event status change (spec 1 §4): optimistic in the list (the selection follows), rolled
 * back with an error modal on failure. The early end also sends endTime = now. Feedback lives
 * here, not in the caller, so it still shows when the power menu closed meanwhile.
 */
export function useSetEventStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      slugDate,
      eventStatus,
      endTime,
    }: {
      slugDate: string;
      eventStatus: EventStatus;
      endTime?: string;
    }) => api(eventsRoutes.update, { body: { slugDate, data: endTime ? { eventStatus, endTime } : { eventStatus } } }),
    onMutate: async ({ slugDate, eventStatus }) => {
      await qc.cancelQueries({ queryKey: LIST_KEY });
      const previous = qc.getQueryData<EventItem[]>(LIST_KEY);
      qc.setQueryData<EventItem[]>(LIST_KEY, (old) =>
        old?.map((e) => (e.slugDate === slugDate ? { ...e, eventStatus } : e)),
      );
      return { previous };
    },
    onSuccess: (_event, { endTime }) => {
      if (endTime) showSuccessModal(MSG.events.eventEndedNow);
    },
    onError: (err, { endTime }, ctx) => {
      if (ctx?.previous) qc.setQueryData(LIST_KEY, ctx.previous);
      if (endTime) showErrorModal(MSG.events.eventUpdateFailed);
      // A refused change (stale data, a rule) is not the same as a broken connection.
      else if (err instanceof ApiError && err.status >= 400 && err.status < 500)
        showErrorModal(MSG.events.eventDataOld);
      else showErrorModal();
    },
    onSettled: () => invalidateEvents(qc),
  });
}

/** One POST per selected day (spec 1 §7); reports which days failed. */
export function useCreateEvents() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (bodies: EventCreate[]) => {
      const results = await Promise.allSettled(bodies.map((body) => api(eventsRoutes.create, { body })));
      return bodies.filter((_b, i) => results[i].status === 'rejected').map((b) => b.gameDate);
    },
    onSettled: () => invalidateEvents(qc),
  });
}

export function useUpdateEvent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: EventUpdate) => api(eventsRoutes.update, { body }),
    onSuccess: (event) => qc.setQueryData(eventKey(event.slugDate), event),
    onSettled: () => invalidateEvents(qc),
  });
}

export function useDeleteEvent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (slugDate: string) => api(eventsRoutes.remove, { params: { slugDate } }),
    onSettled: () => invalidateEvents(qc),
  });
}

/** Live metrics of an event, kept current by the 'monitor metrics' socket event. */
export function useLiveMetrics(slugDate: string | undefined, enabled: boolean) {
  const qc = useQueryClient();
  useSocketEvent('monitor metrics', (m) => {
    if (qc.getQueryData(metricsKey(m.slugDate))) qc.setQueryData<EventMetrics>(metricsKey(m.slugDate), m);
  });
  return useQuery({
    queryKey: metricsKey(slugDate ?? ''),
    queryFn: () => api(eventsRoutes.metrics, { query: { slugDate } }),
    enabled: enabled && !!slugDate,
    retry: false,
  });
}
