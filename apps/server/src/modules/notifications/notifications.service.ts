import { randomUUID } from 'node:crypto';
import { type Notification, type SuspiciousUserData } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { notFound, ERR } from '../../errors.ts';
import {
  countOpenNotifications,
  findOpenForUser,
  insertNotification,
  listNotifications,
  markAddressed,
  updateNotificationData,
  userPhotos,
  type NotificationRow,
} from './notifications.repository.ts';

const SUSPICIOUS = 'suspiciousUser';
const MAX_RECORDS = 200;
const MAX_SCAN = 1000;

function toNotification(r: NotificationRow): Notification {
  return {
    _id: r.id,
    slugDate: r.slugDate,
    type: SUSPICIOUS,
    addressed: r.addressed,
    date: r.createdAt.toISOString(),
    data: r.data as SuspiciousUserData,
  };
}

export async function listSuspicious(deps: Deps, slugDate: string, offset: number, limit: number) {
  return (await listNotifications(deps.db, slugDate, SUSPICIOUS, offset, limit)).map(toNotification);
}

export async function countSuspicious(deps: Deps, slugDate: string): Promise<number> {
  return countOpenNotifications(deps.db, slugDate, SUSPICIOUS);
}

export async function dismissNotification(deps: Deps, id: string): Promise<Notification> {
  const row = await markAddressed(deps.db, id);
  if (!row) throw notFound(ERR.notifications.notificationNotFound);
  deps.realtime.toEvent(row.slugDate, 'notificationDismissed', { _id: row.id, slugDate: row.slugDate });
  return toNotification(row);
}

const seatKey = (p: { section: string; row: string; seat: string }) => `${p.section}\n${p.row}\n${p.seat}`;

/** What the rule found for one user: their distinct seats and whether the rule holds. */
export type SuspiciousCheck = { distinctSRS: number; suspicious: boolean };

/** Runs the rule after a user's photo arrived; raises or refreshes their notification. */
export function checkSuspicious(deps: Deps, slugDate: string, userId: string): Promise<SuspiciousCheck> {
  // One check at a time per user and event, so two quick photos raise one notification.
  const chains = deps.suspiciousChecks;
  const key = `${slugDate}\n${userId}`;
  const next = (chains.get(key) ?? Promise.resolve())
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => runCheck(deps, slugDate, userId));
  const tracked = next.finally(() => {
    if (chains.get(key) === tracked) chains.delete(key);
  });
  chains.set(key, tracked);
  return tracked;
}

async function runCheck(deps: Deps, slugDate: string, userId: string): Promise<SuspiciousCheck> {
  const photos = await userPhotos(deps.db, slugDate, userId, MAX_SCAN);
  const since = Date.now() - deps.config.suspicious.windowMinutes * 60_000;
  const recent = photos.filter((p) => p.date.getTime() >= since);
  const recentSeats = new Set(recent.map(seatKey)).size;
  // Below the rule nothing changes: an open notification keeps the data of its last breach.
  const distinctSRS = new Set(photos.map(seatKey)).size;
  if (recent.length < deps.config.suspicious.photos && recentSeats < deps.config.suspicious.seats)
    return { distinctSRS, suspicious: false };
  const open = await findOpenForUser(deps.db, slugDate, SUSPICIOUS, userId);
  const data: SuspiciousUserData = {
    userId,
    snapshotsTaken: photos.length,
    distinctSRS,
    allSRS: photos.slice(0, MAX_RECORDS).map((p) => ({
      _id: p.id,
      section: p.section,
      row: p.row,
      seat: p.seat,
      time: p.date.toISOString(),
    })),
  };
  if (open) {
    await updateNotificationData(deps.db, open.id, data);
    return { distinctSRS, suspicious: true };
  }
  const row = await insertNotification(deps.db, { id: randomUUID(), slugDate, type: SUSPICIOUS, userId, data });
  deps.log.info({ slugDate, userId, photos: recent.length, seats: recentSeats }, 'suspicious user');
  deps.realtime.toEvent(slugDate, 'notificationAdded', toNotification(row));
  return { distinctSRS, suspicious: true };
}
