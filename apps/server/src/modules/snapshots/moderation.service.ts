import { type Snapshot } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { notFound, ERR } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { moveToNewUrls, removeFiles } from './snapshots.media.ts';
import * as repo from './snapshots.repository.ts';
import type { SnapshotRow } from './snapshots.repository.ts';
import { forViewer, groupByEvent, loadAll, reachable } from './snapshots.service.ts';

/* Moderation: favourite, ban (photos or a user's photos) and delete, each pushed to the event's sockets. */

/** Sets the ban of each photo; a newly banned photo moves to new URLs. */
async function applyBan(deps: Deps, rows: SnapshotRow[], hidden: (r: SnapshotRow) => boolean): Promise<SnapshotRow[]> {
  const out: SnapshotRow[] = [];
  for (const r of rows) {
    const next = hidden(r);
    if (next === r.hidden) {
      out.push(r);
      continue;
    }
    const save = (uris: Partial<SnapshotRow>) => repo.updateSnapshot(deps.db, r.id, { hidden: next, ...uris });
    out.push(next ? await moveToNewUrls(deps.media, r, save) : await save({}));
  }
  return out;
}

export async function banPhotos(deps: Deps, user: AuthUser, ids: string[], banStatus?: boolean): Promise<Snapshot[]> {
  const rows = await loadAll(deps, user, ids);
  const changed = await applyBan(deps, rows, (r) => banStatus ?? !r.hidden);
  for (const [slugDate, list] of groupByEvent(changed)) {
    for (const hidden of [true, false]) {
      const same = list.filter((r) => r.hidden === hidden).map((r) => r.id);
      if (same.length) deps.realtime.toEvent(slugDate, 'bannedChanged', { slugDate, ids: same, hidden });
    }
  }
  return changed.map((row) => forViewer(user, row));
}

export async function banUser(
  deps: Deps,
  user: AuthUser,
  userId: string,
  banStatus: boolean,
  slugDates?: string[],
): Promise<Snapshot[]> {
  const rows = (await repo.userSnapshots(deps.db, userId, slugDates)).filter((r) => reachable(user, r));
  if (rows.length === 0) throw notFound(ERR.album.userHasNoPhotos);
  const changed = await applyBan(deps, rows, () => banStatus);
  for (const slugDate of groupByEvent(changed).keys())
    deps.realtime.toEvent(slugDate, 'bannedChanged', { slugDate, userId, hidden: banStatus });
  return changed.map((row) => forViewer(user, row));
}

export async function favoritePhotos(
  deps: Deps,
  user: AuthUser,
  ids: string[],
  favorite?: boolean,
): Promise<Snapshot[]> {
  const rows = await loadAll(deps, user, ids);
  const changed: SnapshotRow[] = [];
  for (const r of rows) {
    const next = favorite ?? !r.favorite;
    changed.push(next === r.favorite ? r : await repo.updateSnapshot(deps.db, r.id, { favorite: next }));
  }
  for (const [slugDate, list] of groupByEvent(changed)) {
    for (const fav of [true, false]) {
      const same = list.filter((r) => r.favorite === fav).map((r) => r.id);
      if (same.length)
        deps.realtime.toEvent(slugDate, 'monitor favoritedSnapshots', { slugDate, ids: same, favorite: fav });
    }
  }
  return changed.map((row) => forViewer(user, row));
}

export async function deletePhotos(deps: Deps, user: AuthUser, ids: string[]): Promise<number> {
  await loadAll(deps, user, ids);
  const deleted = await repo.deleteSnapshots(deps.db, [...new Set(ids)]);
  await removeFiles(deps.media, deleted);
  for (const r of deleted) await deps.originals.remove(r.id);
  for (const [slugDate, list] of groupByEvent(deleted))
    deps.realtime.toEvent(slugDate, 'snapshotDeleted', { slugDate, ids: list.map((r) => r.id) });
  return deleted.length;
}
