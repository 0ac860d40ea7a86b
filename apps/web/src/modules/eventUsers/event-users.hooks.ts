import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EVENT_USERS_PAGE_SIZE, snapshotsRoutes, toQueryString, type SnapshotListQuery } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { snapshotKeys } from '../snapshots/snapshots.hooks.ts';

/** The filters of the event users table (spec 3 §3 User list state). */
export type EventUsersFilter = {
  section: string[];
  row: string[];
  seat: string[];
  /** 'all', 'banned' or 'allowed'. */
  banned: 'all' | 'banned' | 'allowed';
  sharedPlatform: string[];
  /** ISO instants (the chosen days in the event's zone). */
  dateFrom: string | null;
  dateTo: string | null;
};
export type EventUsersSort = { field: NonNullable<SnapshotListQuery['sortField']>; order: 'asc' | 'desc' };
export type EventUsersParams = { slugDate: string; page: number; filter: EventUsersFilter; sort: EventUsersSort };

export const EMPTY_FILTER: EventUsersFilter = {
  section: [],
  row: [],
  seat: [],
  banned: 'all',
  sharedPlatform: [],
  dateFrom: null,
  dateTo: null,
};

/** Under snapshots' list key: the album's ban and delete hooks patch and refetch it too. */
export const eventUsersKey = [...snapshotKeys.lists, 'eventUsers'] as const;

const list = (values: string[]) => (values.length ? values : undefined);

/** The table's event, filter and sort as the list and the export ask for them. */
const tableQuery = (p: Omit<EventUsersParams, 'page'>) => ({
  slugDate: [p.slugDate],
  type: 'all' as const,
  sortField: p.sort.field,
  sortOrder: p.sort.order,
  section: list(p.filter.section),
  row: list(p.filter.row),
  seat: list(p.filter.seat),
  sharedPlatform: list(p.filter.sharedPlatform),
  hidden: p.filter.banned === 'all' ? undefined : p.filter.banned === 'banned',
  dateFrom: p.filter.dateFrom ?? undefined,
  dateTo: p.filter.dateTo ?? undefined,
});

/** The CSV of every row the table's filter matches (spec 3 §6: EventUsers:read exports). */
export const eventUsersExportUrl = (p: Omit<EventUsersParams, 'page'>) =>
  snapshotsRoutes.eventUsersExport.path + toQueryString(tableQuery(p));

/** The event's photos as the event users table pages them: 50 a page with the total. */
export function useEventUsers(p: EventUsersParams | null) {
  return useQuery({
    queryKey: [...eventUsersKey, p] as const,
    queryFn: () =>
      api(snapshotsRoutes.list, {
        query: { ...tableQuery(p!), page: p!.page, pageSize: EVENT_USERS_PAGE_SIZE, withTotal: true },
      }),
    enabled: p !== null,
    placeholderData: keepPreviousData,
  });
}

export function useSharePlatforms(slugDate: string | undefined) {
  return useQuery({
    queryKey: ['snapshots', 'sharedPlatforms', slugDate],
    queryFn: () => api(snapshotsRoutes.sharedPlatforms, { query: { slugDate: [slugDate!] } }),
    enabled: Boolean(slugDate),
  });
}
