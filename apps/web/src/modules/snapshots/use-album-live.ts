import { useQueryClient } from '@tanstack/react-query';
import { ALBUM_PAGE_SIZE, type AlbumStats, type SnapshotList } from '@stadiumcam/contract';
import { useSocketEvent } from '../../ui/socket.ts';
import { isFilterActive } from './album-filter.ts';
import { asListItem, patchSnapshots, removeSnapshots, snapshotKeys, type AlbumListParams } from './snapshots.hooks.ts';

/**
 * The album's live updates (spec 1 §4 Album). A new photo counts only for selected events and
 * an unfiltered album (seat type ignored); it joins the list only on page 1 of "all", when it is
 * not a magicshot and Auto Refresh is on.
 */
export function useAlbumLive({ autoRefresh, ...p }: AlbumListParams & { autoRefresh: boolean }) {
  const qc = useQueryClient();
  const selected = (slugDate: string) => p.slugDates.includes(slugDate);
  const statsKey = snapshotKeys.stats(p.slugDates, p.filter);
  const bump = (field: keyof AlbumStats, delta: number) =>
    qc.setQueryData<AlbumStats>(statsKey, (s) => (s ? { ...s, [field]: Math.max(0, s[field] + delta) } : s));

  useSocketEvent('monitor newSnapshot', (snapshot) => {
    if (!selected(snapshot.slugDate) || isFilterActive(p.filter)) return;
    bump(snapshot.magicshot ? 'magicshots' : 'all', 1);
    if (!autoRefresh || p.tab !== 'all' || p.page !== 1 || snapshot.magicshot) return;
    qc.setQueryData<SnapshotList>(snapshotKeys.list(p), (data) => {
      if (!data || data.items.some((s) => s._id === snapshot._id)) return data;
      return { ...data, items: [asListItem(snapshot), ...data.items].slice(0, ALBUM_PAGE_SIZE) };
    });
  });

  useSocketEvent('snapshotDeleted', ({ slugDate, ids }) => {
    if (!selected(slugDate)) return;
    removeSnapshots(qc, ids);
    void qc.invalidateQueries({ queryKey: ['snapshots', 'stats'] });
  });

  useSocketEvent('monitor snapshotShared', (snapshot) => {
    if (!selected(snapshot.slugDate)) return;
    const before = qc.getQueryData<SnapshotList>(snapshotKeys.list(p))?.items.find((s) => s._id === snapshot._id);
    patchSnapshots(
      qc,
      (s) => s._id === snapshot._id,
      (s) => ({ ...s, ...asListItem(snapshot) }),
    );
    // The first post makes it a shared photo; later posts do not change the count.
    if (snapshot.postObj.length === 1 && (before?.postObj.length ?? 0) === 0 && !isFilterActive(p.filter)) {
      bump('shared', 1);
    }
  });

  useSocketEvent('monitor favoritedSnapshots', ({ slugDate, ids, favorite }) => {
    if (!selected(slugDate)) return;
    const set = new Set(ids);
    patchSnapshots(
      qc,
      (s) => set.has(s._id),
      (s) => ({ ...s, favorite }),
    );
    void qc.invalidateQueries({ queryKey: ['snapshots', 'stats'] });
  });

  useSocketEvent('bannedChanged', ({ slugDate, ids, userId, hidden }) => {
    if (!selected(slugDate)) return;
    const set = new Set(ids ?? []);
    patchSnapshots(
      qc,
      (s) => set.has(s._id) || (!!userId && s.userId === userId),
      (s) => ({ ...s, hidden }),
    );
    // A ban gives the photos new URLs, which the event does not carry.
    void qc.invalidateQueries({ queryKey: snapshotKeys.lists });
  });
}
