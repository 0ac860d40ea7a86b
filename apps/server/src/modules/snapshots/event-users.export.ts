import { EVENT_USERS_EXPORT_MAX, MAX_PAGE_SIZE, type SnapshotListQuery } from '@stadiumcam/contract';
import { toCsv } from '../../csv.ts';
import type { Deps } from '../../deps.ts';
import { unprocessable, ERR } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { listSnapshots } from './paging.service.ts';

const HEAD = [
  '_id',
  'userId',
  'section',
  'row',
  'seat',
  'date',
  'hidden',
  'shares',
  'sharedURI',
  'sharedPlatforms',
  'contactInfo',
  'overlay',
];

/**
 * The event users table as CSV (spec 3 §6): the table's filter and sort, every page, the table's
 * columns (shares as "source <e-mail>" joined by "; "). Cells are quoted and formula prefixes
 * neutralised (csv.ts). More than EVENT_USERS_EXPORT_MAX rows: 422, narrow the filter.
 */
export async function exportEventUsers(
  deps: Deps,
  user: AuthUser,
  q: SnapshotListQuery,
): Promise<{ name: string; csv: string }> {
  const first = await listSnapshots(deps, user, { ...q, page: 1, pageSize: MAX_PAGE_SIZE, withTotal: true });
  if ((first.total ?? 0) > EVENT_USERS_EXPORT_MAX)
    throw unprocessable(ERR.eventUsers.exportTooLarge(EVENT_USERS_EXPORT_MAX));
  const rows: (string | number | null)[][] = [HEAD];
  let items = first.items;
  for (let page = 1; items.length; page++) {
    for (const s of items)
      rows.push([
        s._id,
        s.userId,
        s.section,
        s.row,
        s.seat,
        s.date,
        s.hidden ? 'banned' : 'no',
        s.postObj.map((p) => (p.userEmail ? `${p.socialSource} <${p.userEmail}>` : p.socialSource)).join('; '),
        s.sharedURI,
        s.sharedPlatforms.join('; '),
        s.contactInfo,
        s.overlay,
      ]);
    if (items.length < MAX_PAGE_SIZE) break;
    items = (await listSnapshots(deps, user, { ...q, page: page + 1, pageSize: MAX_PAGE_SIZE, withTotal: false }))
      .items;
  }
  const slugDates = q.slugDate?.join('_') || 'events';
  return { name: `${slugDates}-event-users.csv`, csv: toCsv(rows) };
}
