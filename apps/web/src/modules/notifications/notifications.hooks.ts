import { useEffect } from 'react';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { NOTIFICATIONS_PAGE_SIZE, notificationsRoutes, type Notification } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { showErrorModal } from '../../ui/feedback.tsx';
import { useSocketEvent } from '../../ui/socket.ts';

type Pages = InfiniteData<Notification[], number>;
const countKey = (slugDate: string) => ['notifications', 'count', slugDate] as const;
const listKey = (slugDate: string) => ['notifications', 'list', slugDate] as const;
const dismissKey = (slugDate: string) => ['notifications', 'dismiss', slugDate] as const;
/**
 * This console's dismissal is on its way: the server's count and list do not show it yet, so
 * asking for them now would undo what the console shows; the dismissal asks when it settles.
 */
const dismissing = (qc: QueryClient, slugDate: string) => qc.isMutating({ mutationKey: dismissKey(slugDate) }) > 0;

const mapPages = (d: Pages | undefined, fn: (n: Notification) => Notification): Pages | undefined =>
  d && { ...d, pages: d.pages.map((p) => p.map(fn)) };

/**
 * Suspicious-user notifications not yet addressed: rises on notificationAdded, falls on a
 * dismissal (spec 1 §2); this console's own dismissal lowers it at once.
 */
export function useNotificationCount(slugDate: string) {
  const qc = useQueryClient();
  const key = countKey(slugDate);
  const query = useQuery({
    queryKey: key,
    queryFn: () => api(notificationsRoutes.count, { query: { slugDate } }),
  });
  // The server's number is asked again rather than counted here: a dismissal by this console
  // comes back as an event too, and a repeated breach updates a notification already counted.
  const refresh = (n: { slugDate: string }) => {
    if (n.slugDate === slugDate && !dismissing(qc, slugDate)) void qc.invalidateQueries({ queryKey: key });
  };
  useSocketEvent('notificationAdded', refresh);
  useSocketEvent('notificationDismissed', refresh);
  useSocketEvent('check distinct', (c) => {
    if (c.suspicious) refresh(c);
  });
  return query.data?.total ?? 0;
}

/** The next page's offset: the pages so far times the page size; none after a short page (spec 3 §9). */
export const nextNotificationsOffset = (last: unknown[], all: unknown[][]): number | undefined =>
  last.length < NOTIFICATIONS_PAGE_SIZE ? undefined : all.length * NOTIFICATIONS_PAGE_SIZE;

/** The notification list, newest first, 20 a page (a shorter page means no more). */
export function useNotifications(slugDate: string) {
  const qc = useQueryClient();
  const key = listKey(slugDate);
  const query = useInfiniteQuery({
    queryKey: key,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      api(notificationsRoutes.list, { query: { slugDate, offset: pageParam, limit: NOTIFICATIONS_PAGE_SIZE } }),
    getNextPageParam: nextNotificationsOffset,
    // Socket events patch it only while the list is open: ask again each time it opens.
    staleTime: 0,
  });
  useEffect(() => {
    // Spec 3 §8: a failed notifications fetch shows the generic modal.
    if (query.isError) showErrorModal();
  }, [query.isError]);

  useSocketEvent('notificationAdded', (n) => {
    if (n.slugDate !== slugDate) return;
    qc.setQueryData<Pages>(key, (d) => {
      if (!d) return d;
      const known = d.pages.some((p) => p.some((x) => x._id === n._id));
      if (known) return mapPages(d, (x) => (x._id === n._id ? n : x));
      return { ...d, pages: [[n, ...(d.pages[0] ?? [])], ...d.pages.slice(1)] };
    });
  });
  // A fan seen again from another seat: their card's seat records and counts are new.
  useSocketEvent('check distinct', (c) => {
    if (c.slugDate === slugDate && c.suspicious && !dismissing(qc, slugDate))
      void qc.invalidateQueries({ queryKey: key });
  });
  useSocketEvent('notificationDismissed', ({ _id, slugDate: sd }) => {
    if (sd !== slugDate) return;
    qc.setQueryData<Pages>(key, (d) => mapPages(d, (x) => (x._id === _id ? { ...x, addressed: true } : x)));
  });
  return query;
}

/** Dismiss: addressed at once, rolled back with the "Oops..." modal when the server refuses. */
export function useDismissNotification(slugDate: string) {
  const qc = useQueryClient();
  const setAddressed = (id: string, addressed: boolean) =>
    qc.setQueryData<Pages>(listKey(slugDate), (d) => mapPages(d, (x) => (x._id === id ? { ...x, addressed } : x)));
  const shiftCount = (by: number) =>
    qc.setQueryData<{ total: number }>(countKey(slugDate), (c) => (c ? { total: Math.max(0, c.total + by) } : c));

  return useMutation({
    mutationKey: dismissKey(slugDate),
    mutationFn: (id: string) => api(notificationsRoutes.dismiss, { params: { id } }),
    onMutate: async (id) => {
      // A fetch already on its way would answer with the number before the dismissal.
      await qc.cancelQueries({ queryKey: countKey(slugDate) });
      await qc.cancelQueries({ queryKey: listKey(slugDate) });
      setAddressed(id, true);
      shiftCount(-1);
    },
    onError: (_err, id) => {
      setAddressed(id, false);
      shiftCount(1);
      showErrorModal();
    },
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: countKey(slugDate) }),
        qc.invalidateQueries({ queryKey: listKey(slugDate) }),
      ]),
  });
}
