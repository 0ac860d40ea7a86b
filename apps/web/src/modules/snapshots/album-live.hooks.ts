import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ALBUM_PAGE_SIZE, type AlbumStats, type Snapshot, type SnapshotList } from '@stadiumcam/contract';
import { useSocketEvent } from '../../ui/socket.ts';
import { isFilterActive } from './album-filter.ts';
import { asListItem, patchSnapshots, removeSnapshots, snapshotKeys, type AlbumListParams } from './snapshots.hooks.ts';

/**
 * The album's live updates (spec 1 §4 Album). A new photo counts only for selected events and
 * an unfiltered album (seat type ignored); it joins the list only on page 1 of "all", when it is
 * not a magicshot and Auto Refresh is on.
 */
export function useAlbumLive({
  autoRefresh,
  isWorking,
  ...p
}: AlbumListParams & { autoRefresh: boolean; isWorking: () => boolean }) {
  const qc = useQueryClient();
  // Photos held back while the operator works on the grid (DESIGN §6), newest first.
  const [waiting, setWaiting] = useState<Snapshot[]>([]);
  const listKey = snapshotKeys.list(p);
  const join = (photos: Snapshot[]) =>
    qc.setQueryData<SnapshotList>(listKey, (data) => {
      if (!data) return data;
      const fresh = photos.filter((n) => !data.items.some((s) => s._id === n._id)).map(asListItem);
      return fresh.length ? { ...data, items: [...fresh, ...data.items].slice(0, ALBUM_PAGE_SIZE) } : data;
    });
  // Another tab, page, filter or selection: what waited belongs to the old list.
  const keyString = JSON.stringify(listKey);
  const [waitingFor, setWaitingFor] = useState(keyString);
  if (waitingFor !== keyString) {
    setWaitingFor(keyString);
    setWaiting([]);
  }
  const selected = (slugDate: string) => p.slugDates.includes(slugDate);
  const statsKey = snapshotKeys.stats(p.slugDates, p.filter);
  const bump = (field: keyof AlbumStats, delta: number) =>
    qc.setQueryData<AlbumStats>(statsKey, (s) => (s ? { ...s, [field]: Math.max(0, s[field] + delta) } : s));

  useSocketEvent('monitor newSnapshot', (snapshot) => {
    if (!selected(snapshot.slugDate) || isFilterActive(p.filter)) return;
    bump(snapshot.magicshot ? 'magicshots' : 'all', 1);
    if (!autoRefresh || p.tab !== 'all' || p.page !== 1 || snapshot.magicshot) return;
    if (isWorking()) setWaiting((w) => (w.some((s) => s._id === snapshot._id) ? w : [snapshot, ...w]));
    else join([snapshot]);
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

  const show = () => {
    join(waiting);
    setWaiting([]);
  };
  return {
    count: waiting.length,
    /** The pill's click: the waiting photos join the page now. */
    show,
    /** The operator stopped working on the grid: what waited joins unless they still work. */
    settle: () => {
      if (waiting.length && !isWorking()) show();
    },
  };
}
