import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  ALBUM_PAGE_SIZE,
  eventsRoutes,
  snapshotsRoutes,
  type AlbumStats,
  type ShareSnapshotsEmail,
  type Snapshot,
  type SnapshotList,
  type SnapshotListItem,
  type SnapshotListQuery,
  type SnapshotType,
} from '@stadiumcam/contract';
import { api, ApiError } from '../../ui/api.ts';
import { showErrorModal } from '../../ui/feedback.tsx';
import { filterToQuery, type AlbumFilter } from './album-filter.ts';
import { readExif } from './exif.ts';

/** Every query of this module starts with 'snapshots' so live events can patch them all. */
export const snapshotKeys = {
  all: ['snapshots'] as const,
  lists: ['snapshots', 'list'] as const,
  list: (p: AlbumListParams) => ['snapshots', 'list', p] as const,
  stats: (slugDates: string[], filter: AlbumFilter) => ['snapshots', 'stats', { slugDates, filter }] as const,
  filterOptions: (slugDates: string[]) => ['snapshots', 'filterOptions', slugDates] as const,
  one: (id: string) => ['snapshots', 'one', id] as const,
  strips: ['snapshots', 'strip'] as const,
  strip: (p: StripParams) => ['snapshots', 'strip', p] as const,
  faces: (id: string) => ['snapshots', 'faces', id] as const,
  userStats: (userId: string) => ['snapshots', 'userStats', userId] as const,
  exif: (url: string) => ['snapshots', 'exif', url] as const,
  eventZones: ['snapshots', 'eventZones'] as const,
};

export type AlbumTab = Extract<SnapshotType, 'all' | 'shared' | 'favorites' | 'magicshots'>;
export type AlbumListParams = { slugDates: string[]; tab: AlbumTab; page: number; filter: AlbumFilter };

export function useAlbumList(p: AlbumListParams) {
  return useQuery({
    queryKey: snapshotKeys.list(p),
    queryFn: () =>
      api(snapshotsRoutes.list, {
        query: {
          ...filterToQuery(p.filter),
          slugDate: p.slugDates,
          type: p.tab,
          page: p.page,
          pageSize: ALBUM_PAGE_SIZE,
        },
      }),
    enabled: p.slugDates.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useAlbumStats(slugDates: string[], filter: AlbumFilter) {
  return useQuery({
    queryKey: snapshotKeys.stats(slugDates, filter),
    queryFn: () => api(snapshotsRoutes.stats, { query: { ...filterToQuery(filter), slugDate: slugDates } }),
    enabled: slugDates.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useFilterOptions(slugDates: string[]) {
  return useQuery({
    queryKey: snapshotKeys.filterOptions(slugDates),
    queryFn: () => api(snapshotsRoutes.filterOptions, { query: { slugDate: slugDates } }),
    enabled: slugDates.length > 0,
  });
}

export function useSnapshot(id: string | undefined) {
  return useQuery({
    queryKey: snapshotKeys.one(id ?? ''),
    queryFn: async () => (await api(snapshotsRoutes.get, { params: { id: id! }, query: {} })) as Snapshot,
    enabled: !!id,
  });
}

/** Loaded only while the vision card is open (spec 1 §2: lazily, per snapshot). */
export function useFacesData(id: string, enabled: boolean) {
  return useQuery({
    queryKey: snapshotKeys.faces(id),
    queryFn: () => api(snapshotsRoutes.facesData, { params: { id } }),
    enabled,
  });
}

export function useUserStats(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: snapshotKeys.userStats(userId),
    queryFn: () => api(snapshotsRoutes.userStats, { params: { id: userId }, query: {} }),
    enabled,
  });
}

export function useExif(url: string, enabled: boolean) {
  return useQuery({ queryKey: snapshotKeys.exif(url), queryFn: () => readExif(url), enabled, retry: false });
}

/** Time zones of the events, to show photo times in their event's zone. */
export function useEventZones() {
  return useQuery({
    queryKey: snapshotKeys.eventZones,
    queryFn: async () => {
      const events = await api(eventsRoutes.list, { query: { fields: ['slugDate', 'timezone', 'title'] } });
      return new Map(events.map((e) => [e.slugDate!, { timezone: e.timezone, title: e.title }]));
    },
    staleTime: 5 * 60_000,
  });
}

// ---- the lightbox strip: keyset pages both ways around the photo it opened on ----------

export const STRIP_PAGE_SIZE = 30;
export type StripParams = {
  anchor: Pick<Snapshot, '_id' | 'date'>;
  slugDates: string[];
  userId?: string;
  type: Extract<SnapshotType, 'all' | 'all-with-magicshot'>;
};
/**
 * A page of the strip. The first one ('start') also carries the counts that place the strip in the
 * album: `total` photos, `fromAnchor` of them at or after the anchor in the album's order (newest first).
 */
type StripPage = {
  items: SnapshotListItem[];
  dir: 'start' | 'older' | 'newer';
  total?: number;
  fromAnchor?: number;
};
type StripCursor = { dir: StripPage['dir']; date: string; id: string };

export function useStrip(p: StripParams | null) {
  const start: StripCursor = { dir: 'start', date: p?.anchor.date ?? '', id: p?.anchor._id ?? '' };
  return useInfiniteQuery({
    queryKey: snapshotKeys.strip(p!),
    enabled: !!p,
    initialPageParam: start,
    queryFn: async ({ pageParam }): Promise<StripPage> => {
      const newer = pageParam.dir === 'newer';
      const base: SnapshotListQuery = {
        ...(p!.userId ? { userId: [p!.userId] } : { slugDate: p!.slugDates }),
        type: p!.type,
        page: 1,
        pageSize: STRIP_PAGE_SIZE,
        sortField: 'date',
        sortOrder: newer ? 'asc' : 'desc',
        dateVal: pageParam.date,
        dateComparator: newer ? 'gt' : pageParam.dir === 'start' ? 'lte' : 'lt',
        ...(pageParam.dir === 'start' ? {} : { cursorId: pageParam.id }),
      };
      if (pageParam.dir === 'start') {
        // Two counts place the anchor: 'photo 36 of 212', not '1 of 35+'.
        const { dateVal: _d, dateComparator: _c, ...everything } = base;
        const [{ items, total: fromAnchor }, { total }] = await Promise.all([
          api(snapshotsRoutes.list, { query: { ...base, withTotal: true } }),
          api(snapshotsRoutes.list, { query: { ...everything, pageSize: 1, withTotal: true } }),
        ]);
        return { items, dir: 'start', total, fromAnchor };
      }
      const { items } = await api(snapshotsRoutes.list, { query: base });
      return { items: newer ? items.reverse() : items, dir: pageParam.dir };
    },
    // Older pages are appended and newer ones prepended, so the ends are always the last/first page.
    getNextPageParam: (last): StripCursor | undefined => {
      const tail = last.items.at(-1);
      return tail && last.items.length >= STRIP_PAGE_SIZE ? { dir: 'older', date: tail.date, id: tail._id } : undefined;
    },
    getPreviousPageParam: (first): StripCursor | undefined => {
      if (first.dir === 'newer' && first.items.length < STRIP_PAGE_SIZE) return undefined;
      const head = first.items[0];
      return head ? { dir: 'newer', date: head.date, id: head._id } : undefined;
    },
  });
}

/**
 * Where the photo at `index` of the strip stands in the album (1 = the newest) and the album's
 * total, from the start page's counts; null until they are known.
 */
export function stripPosition(
  pages: readonly StripPage[] | undefined,
  items: readonly SnapshotListItem[],
  anchorId: string | undefined,
  index: number,
): { position: number; total: number } | null {
  const start = pages?.find((p) => p.dir === 'start');
  const anchorAt = items.findIndex((s) => s._id === anchorId);
  if (start?.total === undefined || start.fromAnchor === undefined || anchorAt < 0 || index < 0) return null;
  const position = start.total - start.fromAnchor + 1 + (index - anchorAt);
  return position >= 1 && position <= start.total ? { position, total: start.total } : null;
}

// ---- cache patching, shared by mutations and live events ----------------------------------

type Patch = (s: SnapshotListItem) => SnapshotListItem;

/** Applies a change to every cached copy of the photos (album pages, strips, single photos). */
export function patchSnapshots(qc: QueryClient, match: (s: Snapshot) => boolean, patch: Patch): void {
  qc.setQueriesData<SnapshotList>({ queryKey: snapshotKeys.lists }, (data) =>
    data ? { ...data, items: data.items.map((s) => (match(s) ? patch(s) : s)) } : data,
  );
  qc.setQueriesData<InfiniteData<StripPage>>({ queryKey: snapshotKeys.strips }, (data) =>
    data
      ? { ...data, pages: data.pages.map((pg) => ({ ...pg, items: pg.items.map((s) => (match(s) ? patch(s) : s)) })) }
      : data,
  );
  for (const [key, one] of qc.getQueriesData<Snapshot>({ queryKey: ['snapshots', 'one'] })) {
    if (one && match(one)) qc.setQueryData(key, patch(asListItem(one)));
  }
}

export function removeSnapshots(qc: QueryClient, ids: readonly string[]): void {
  const gone = new Set(ids);
  qc.setQueriesData<SnapshotList>({ queryKey: snapshotKeys.lists }, (data) =>
    data ? { ...data, items: data.items.filter((s) => !gone.has(s._id)) } : data,
  );
  qc.setQueriesData<InfiniteData<StripPage>>({ queryKey: snapshotKeys.strips }, (data) => {
    if (!data) return data;
    // The counts follow: the start and older pages are the photos at or after the anchor.
    const removed = (pages: StripPage[]) =>
      pages.reduce((n, pg) => n + pg.items.filter((s) => gone.has(s._id)).length, 0);
    const all = removed(data.pages);
    const fromAnchor = removed(data.pages.filter((pg) => pg.dir !== 'newer'));
    const pages = data.pages.map((pg) => ({
      ...pg,
      items: pg.items.filter((s) => !gone.has(s._id)),
      ...(pg.dir === 'start' && pg.total !== undefined && pg.fromAnchor !== undefined
        ? { total: pg.total - all, fromAnchor: pg.fromAnchor - fromAnchor }
        : {}),
    }));
    return { ...data, pages };
  });
}

export const asListItem = (s: Snapshot): SnapshotListItem => ({
  sharedPlatforms: [...new Set(s.postObj.map((p) => p.socialSource))],
  contactInfo: s.postObj.find((p) => p.userEmail)?.userEmail ?? null,
  ...s,
});

/** Server answers replace the cached copies (a ban gives a photo new URLs). */
function applyChanged(qc: QueryClient, changed: Snapshot[]) {
  const byId = new Map(changed.map((s) => [s._id, s]));
  patchSnapshots(
    qc,
    (s) => byId.has(s._id),
    (s) => ({ ...s, ...byId.get(s._id)! }),
  );
}

type Saved = [readonly unknown[], unknown][];
function saveAll(qc: QueryClient): Saved {
  return qc.getQueriesData({ queryKey: snapshotKeys.all });
}
function restoreAll(qc: QueryClient, saved: Saved | undefined) {
  for (const [key, data] of saved ?? []) qc.setQueryData(key, data);
}

function adjustStats(qc: QueryClient, field: keyof AlbumStats, delta: number) {
  if (!delta) return;
  qc.setQueriesData<AlbumStats>({ queryKey: ['snapshots', 'stats'] }, (s) =>
    s ? { ...s, [field]: Math.max(0, s[field] + delta) } : s,
  );
}

function cachedById(qc: QueryClient): Map<string, SnapshotListItem> {
  const out = new Map<string, SnapshotListItem>();
  for (const [, data] of qc.getQueriesData<SnapshotList>({ queryKey: snapshotKeys.lists })) {
    for (const s of data?.items ?? []) out.set(s._id, s);
  }
  return out;
}

/** Optimistic (spec 1 §4): flips at once, rolls back with the "Oops..." modal on failure. */
export function useFavorite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { ids: string[]; favorite: boolean }) => api(snapshotsRoutes.favorite, { body: v }),
    onMutate: async ({ ids, favorite }) => {
      await qc.cancelQueries({ queryKey: snapshotKeys.all });
      const saved = saveAll(qc);
      const known = cachedById(qc);
      const flips = ids.filter((id) => known.get(id) && known.get(id)!.favorite !== favorite).length;
      const set = new Set(ids);
      patchSnapshots(
        qc,
        (s) => set.has(s._id),
        (s) => ({ ...s, favorite }),
      );
      adjustStats(qc, 'favorite', favorite ? flips : -flips);
      return { saved };
    },
    onError: (_err, _v, ctx) => {
      restoreAll(qc, ctx?.saved);
      showErrorModal();
    },
    onSuccess: (res) => applyChanged(qc, res.snapshots),
    onSettled: () => qc.invalidateQueries({ queryKey: ['snapshots', 'stats'] }),
  });
}

/**
 * Ban or unban, optimistically: the matching photos flip at once and roll back with the
 * "Oops..." modal when the server refuses (spec 1 §4).
 */
function useOptimisticBan<V extends { banStatus: boolean }>(
  send: (v: V) => Promise<{ snapshots: Snapshot[] }>,
  matches: (v: V) => (s: Snapshot) => boolean,
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onMutate: async (v: V) => {
      await qc.cancelQueries({ queryKey: snapshotKeys.all });
      const saved = saveAll(qc);
      patchSnapshots(qc, matches(v), (s) => ({ ...s, hidden: v.banStatus }));
      return { saved };
    },
    onError: (_err, _v, ctx) => {
      restoreAll(qc, ctx?.saved);
      showErrorModal();
    },
    onSuccess: (res) => applyChanged(qc, res.snapshots),
  });
}

export const useBan = () =>
  useOptimisticBan(
    (v: { ids: string[]; banStatus: boolean }) => api(snapshotsRoutes.ban, { body: v }),
    ({ ids }) => {
      const set = new Set(ids);
      return (s) => set.has(s._id);
    },
  );

export const useBanUser = () =>
  useOptimisticBan(
    (v: { userId: string; banStatus: boolean }) => api(snapshotsRoutes.banUser, { body: v }),
    ({ userId }) =>
      (s) =>
        s.userId === userId,
  );

export function useDeleteSnapshots() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api(snapshotsRoutes.remove, { body: { ids } }),
    onSuccess: (_res, ids) => {
      removeSnapshots(qc, ids);
      // The page refills from the next one and the counts change: ask again.
      void qc.invalidateQueries({ queryKey: snapshotKeys.lists });
      void qc.invalidateQueries({ queryKey: ['snapshots', 'stats'] });
    },
  });
}

export function useShareByEmail() {
  return useMutation({ mutationFn: (body: ShareSnapshotsEmail) => api(snapshotsRoutes.shareByEmail, { body }) });
}

export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;
