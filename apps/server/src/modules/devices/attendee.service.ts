import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Event, PublicEvent, PublicSnapshot, Seat, ShareSource } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { composite } from '../../media/images.ts';
import { keyOfUrl, putMedia, readMedia } from '../../media/media-store.ts';
import type { SnapshotRow } from '../snapshots/snapshots.repository.ts';
import { toSnapshot } from '../snapshots/snapshots.mapper.ts';
import { hostAck, cameraHub } from '../cameras/cameras.service.ts';
import { appendShare, findSnapshotRow, listUserSnapshotRows, setSnapshotOverlay } from './devices.repository.ts';
import { currentEvent, eventBySlugDate, metricsChanged } from './events-link.ts';

type Overlay = { storageKey: string; urlFullSize: string; disabled?: boolean; deleted?: boolean; sections?: unknown };

function overlaysOf(event: Event, section?: string): Overlay[] {
  return (event.overlays as Partial<Overlay>[]).filter((o): o is Overlay => {
    if (typeof o.storageKey !== 'string' || typeof o.urlFullSize !== 'string' || o.disabled || o.deleted) return false;
    const sections = o.sections;
    // Restricted overlays name their seat sections; '*' or no list means every section.
    if (section === undefined || !Array.isArray(sections) || sections.length === 0 || sections.includes('*'))
      return true;
    return sections.includes(section);
  });
}

export async function publicEvent(deps: Deps): Promise<PublicEvent> {
  const event = await currentEvent(deps);
  return {
    slugDate: event.slugDate,
    title: event.title,
    eventStatus: event.eventStatus,
    overlays: overlaysOf(event).map((o) => ({ storageKey: o.storageKey, urlFullSize: o.urlFullSize })),
  };
}

export async function joinQueue(
  deps: Deps,
  input: { slugDate: string; userId: string; seat: Seat },
): Promise<{ camera: string; position: number }> {
  const event = await eventBySlugDate(deps, input.slugDate);
  if (!event) throw notFound('Event not found');
  const hub = cameraHub(deps);
  if (hub.banned.has(input.userId)) throw forbidden('You may not use the cameras at this event');
  const camera = hub.pickCamera();
  if (!camera) throw conflict('No camera is available');
  const host = hub.hostOf(camera);
  if ('error' in host) throw conflict('No camera is available');
  hub.activeSlugDate = input.slugDate;
  try {
    const answer = await host.socket
      .timeout(hostAck.timeoutMs)
      .emitWithAck('queue join', { camera, slugDate: input.slugDate, userId: input.userId, seat: input.seat });
    if (!answer.ok) throw conflict(answer.error);
    return { camera, position: answer.position };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw conflict('The camera did not answer, please try again');
  }
}

function toPublic(r: SnapshotRow): PublicSnapshot {
  const s = toSnapshot(r);
  return {
    _id: s._id,
    slugDate: s.slugDate,
    camera: s.camera,
    section: s.section,
    row: s.row,
    seat: s.seat,
    date: s.date,
    thumbURI: s.thumbURI,
    smallURI: s.smallURI,
    rawCroppedURI: s.rawCroppedURI,
    sharedURI: s.sharedURI,
    overlay: s.overlay,
    magicshot: s.magicshot,
  };
}

export async function userSnapshots(deps: Deps, slugDate: string, userId: string): Promise<PublicSnapshot[]> {
  return (await listUserSnapshotRows(deps.db, slugDate, userId, 50)).map(toPublic);
}

/** The attendee's own visible photo; anything else is "not found" (no probing of other ids). */
async function ownPhoto(deps: Deps, id: string, userId: string): Promise<SnapshotRow> {
  const row = await findSnapshotRow(deps.db, id);
  if (!row || row.userId !== userId || row.hidden) throw notFound('Photo not found');
  return row;
}

const overlayCache = new Map<string, Buffer>();
async function overlayImage(deps: Deps, url: string): Promise<Buffer> {
  const key = keyOfUrl(url);
  if (!key) throw new AppError(422, 'Overlay is not available');
  const cached = overlayCache.get(`${deps.config.mediaDir}\n${key}`);
  if (cached) return cached;
  let data: Buffer;
  try {
    data = await readMedia(deps.config.mediaDir, key);
  } catch {
    throw new AppError(422, 'Overlay is not available');
  }
  if (overlayCache.size > 20) overlayCache.clear();
  overlayCache.set(`${deps.config.mediaDir}\n${key}`, data);
  return data;
}

export async function chooseOverlay(
  deps: Deps,
  id: string,
  userId: string,
  overlayKey: string | null,
): Promise<PublicSnapshot> {
  const row = await ownPhoto(deps, id, userId);
  let sharedUri = row.rawCroppedUri;
  if (overlayKey !== null) {
    const event = await eventBySlugDate(deps, row.slugDate);
    const overlay = event && overlaysOf(event, row.section).find((o) => o.storageKey === overlayKey);
    if (!overlay) throw badRequest(`Unknown overlay "${overlayKey.slice(0, 100)}"`);
    const rawKey = keyOfUrl(row.rawCroppedUri);
    if (!rawKey) throw new AppError(422, 'The photo is not in the media store');
    const hash = createHash('sha1').update(`${overlay.storageKey}\n${overlay.urlFullSize}`).digest('hex').slice(0, 12);
    const sharedKey = `${path.posix.dirname(rawKey)}/shared-${hash}.jpg`;
    if (!existsSync(path.join(deps.config.mediaDir, ...sharedKey.split('/')))) {
      const jpeg = await composite(
        await readMedia(deps.config.mediaDir, rawKey),
        await overlayImage(deps, overlay.urlFullSize),
      );
      await putMedia(deps.config.mediaDir, sharedKey, jpeg);
    }
    sharedUri = `/media/${sharedKey}`;
  }
  const updated = await setSnapshotOverlay(deps.db, id, overlayKey, sharedUri);
  if (!updated) throw notFound('Photo not found');
  deps.realtime.toEvent(updated.slugDate, 'monitor snapshotShared', toSnapshot(updated));
  return toPublic(updated);
}

export async function share(
  deps: Deps,
  id: string,
  input: { userId: string; socialSource: ShareSource; userEmail?: string },
): Promise<PublicSnapshot> {
  const row = await ownPhoto(deps, id, input.userId);
  const updated = await appendShare(deps.db, id, {
    socialSource: input.socialSource,
    imgURL: row.sharedUri,
    date: new Date().toISOString(),
    ...(input.userEmail ? { userEmail: input.userEmail } : {}),
  });
  if (!updated) throw notFound('Photo not found');
  deps.realtime.toEvent(updated.slugDate, 'monitor snapshotShared', toSnapshot(updated));
  metricsChanged(deps, updated.slugDate);
  return toPublic(updated);
}
