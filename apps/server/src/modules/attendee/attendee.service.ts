import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  distanceKm,
  isBlockedSeat,
  offeredSeatOptions,
  readSeat,
  type Event,
  type Geofence,
  type PublicEvent,
  type PublicSnapshot,
  type Seat,
  type ShareSource,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized, unprocessable, ERR } from '../../errors.ts';
import { compositeLayers, rawLayer, type PlacedLayer, type RawLayer } from '../../media/images.ts';
import { keyOfUrl } from '../../media/media-store.ts';
import type { SnapshotRow } from '../snapshots/index.ts';
import { toSnapshot, withoutContacts } from '../snapshots/index.ts';
import { appendShare, findSnapshotRow, listUserSnapshotRows, setSnapshotOverlay } from './attendee.repository.ts';
import { currentEvent, eventBySlugDate, metricsChanged } from '../events/index.ts';
import { toPublicTemplate } from '../template/index.ts';
import { cameraForSeat } from '../mapping/index.ts';
import { fanPlaces } from './fan-places.ts';

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

/** The current event, or the one asked for, with the template parts the app shows. */
export async function publicEvent(deps: Deps, slugDate?: string): Promise<PublicEvent> {
  const event = slugDate ? await eventBySlugDate(deps, slugDate) : await currentEvent(deps);
  if (!event) throw notFound(ERR.events.eventNotFound);
  return {
    ...toPublicTemplate(event),
    slugDate: event.slugDate,
    title: event.title,
    eventStatus: event.eventStatus,
    overlays: overlaysOf(event).map((o) => ({
      storageKey: o.storageKey,
      urlFullSize: o.urlFullSize,
      sections: Array.isArray(o.sections) && o.sections.length ? o.sections.map(String) : ['*'],
    })),
  };
}

/**
 * The template's rules a queue join must pass on the server too (docs/security.md §17): the seat
 * is read in the one spelling the seat map reads (else 400, nothing else runs), its type is one
 * the event offers (a type the operator forced off gets the documents' 'Please, select a seat
 * type'), it is not blocked in any spelling and, with the geofence on, the reported position is
 * inside its radius.
 */
function checkSeatAndPlace(event: Event, input: Seat, location?: { latitude: number; longitude: number }): Seat {
  const read = readSeat(input);
  if (!read.ok) throw badRequest(ERR.attendeeApp.seatUnreadable, [{ key: 'seatUnreadable', field: read.field }]);
  const seat = read.seat;
  if (!offeredSeatOptions(event.seatType).some((o) => o.type === seat.seatType))
    throw new AppError(422, ERR.templateParts.selectSeatType, { details: [{ key: 'seatTypeNotOffered' }] });
  if (isBlockedSeat(event.blockedSeats, seat)) throw unprocessable(ERR.templateParts.seatBlocked);
  const fence = event.geofence as Geofence | undefined;
  if (fence?.enabled) {
    if (!location) throw forbidden(ERR.templateParts.positionNeeded);
    if (distanceKm(fence, location) > fence.radius) throw forbidden(ERR.templateParts.outsideGeofence);
  }
  return seat;
}

/** The camera whose queue holds the fan now, if any. */
export function queuedAt(deps: Deps, userId: string): { camera: string; position: number } | null {
  for (const s of deps.cameras.states()) {
    const i = s.queue.indexOf(userId);
    if (i >= 0) return { camera: s.camera, position: i + 1 };
  }
  return null;
}

/**
 * A queue join (docs/security.md §18): only with the fan's own server-issued id (`fanId`, from its
 * token), one join of a fan at a time, one place per fan (a join from another seat moves the fan:
 * its old camera's host is told to drop it), and at most `queueMax` fans waiting per camera.
 */
export async function joinQueue(
  deps: Deps,
  fanId: string | null,
  input: { slugDate: string; userId: string; seat: Seat; location?: { latitude: number; longitude: number } },
): Promise<{ camera: string; position: number }> {
  if (!fanId) throw unauthorized(ERR.attendeeApp.fanIdNeeded);
  if (fanId !== input.userId) throw forbidden(ERR.attendeeApp.fanIdMismatch);
  const event = await eventBySlugDate(deps, input.slugDate);
  if (!event) throw notFound(ERR.events.eventNotFound);
  // Only the event being played now: a QR code of another day must not occupy the cameras.
  const current = await currentEvent(deps);
  if (current.slugDate !== event.slugDate || current.eventStatus !== 'live') {
    throw conflict(ERR.security.eventNotLive);
  }
  const seat = checkSeatAndPlace(event, input.seat, input.location);
  const hub = deps.cameras;
  if (hub.isBanned(fanId)) throw forbidden(ERR.attendeeApp.camerasBanned);
  const release = await fanPlaces(deps).lock(fanId);
  if (!release) throw conflict(ERR.attendeeApp.joinUnderWay);
  try {
    const { camera, aim, seat: mapSeat } = cameraForSeat(deps, seat);
    const host = hub.hostOf(camera);
    if ('error' in host) throw conflict(ERR.attendeeApp.noCameraAvailable);
    const queue = hub.get(camera)?.queue ?? [];
    if (!queue.includes(fanId) && queue.length >= deps.config.publicLimits.queueMax)
      throw new AppError(409, ERR.attendeeApp.queueFull(camera), {
        headers: { 'retry-after': '60' },
        details: [{ key: 'queueFull' }],
      });
    // One place per fan: the camera it waits at now (reported, or joined a moment ago) lets it go.
    const before = queuedAt(deps, fanId)?.camera ?? (await fanPlaces(deps).placeOf(fanId));
    if (before && before !== camera) await leaveQueue(deps, before, fanId);
    hub.setActive(input.slugDate);
    let answer: { ok: true; position: number } | { ok: false; error: string };
    try {
      answer = await host.ask(
        'queue join',
        { camera, slugDate: input.slugDate, userId: fanId, seat: mapSeat, ...(aim ? { aim } : {}) },
        deps.config.hostAckTimeoutMs,
      );
    } catch {
      throw conflict(ERR.attendeeApp.cameraNoAnswer);
    }
    if (!answer.ok) throw conflict(ERR.cameras.hostRefused(answer.error));
    await fanPlaces(deps).setPlace(fanId, camera);
    // The seat heat map's joins, written with the second's others (the fan is queued already).
    deps.queueJoins.add(input.slugDate, mapSeat);
    return { camera, position: answer.position };
  } finally {
    await release();
  }
}

/** Tells a camera's host to drop the fan (a move to another camera); a host that does not answer keeps it. */
async function leaveQueue(deps: Deps, camera: string, fanId: string): Promise<void> {
  const host = deps.cameras.hostOf(camera);
  if ('error' in host) return;
  await host.ask('kick', { userId: fanId }, deps.config.hostAckTimeoutMs).catch(() => undefined);
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
  if (!row || row.userId !== userId || row.hidden) throw notFound(ERR.attendeeApp.photoNotFound);
  return row;
}

/**
 * An overlay or watermark as raw pixels for one photo size, kept for the next photo of that size
 * (a venue's cameras give few sizes), so a share does not decode a 2160² PNG each time.
 */
async function layerOf(
  deps: Deps,
  url: string,
  size: { width: number; height: number },
  fit: 'fill' | 'contain',
): Promise<RawLayer> {
  const key = keyOfUrl(url);
  if (!key) throw new AppError(422, ERR.attendeeApp.overlayUnavailable);
  const id = `${key}|${fit}|${size.width}x${size.height}`;
  const cached = deps.overlayLayers.get(id);
  if (cached) return cached;
  let data: Buffer;
  try {
    data = await deps.media.read(key);
  } catch {
    throw new AppError(422, ERR.attendeeApp.overlayUnavailable);
  }
  const layer = await rawLayer(data, size.width, size.height, fit);
  // Raw pixels are big (3.7 MB at 1280×720): a dozen overlay and size pairs at most.
  if (deps.overlayLayers.size >= 12) deps.overlayLayers.clear();
  deps.overlayLayers.set(id, layer);
  return layer;
}

/** The watermark in the photo's bottom-right corner, 18% of its shorter side, 3% from the edges. */
async function watermarkLayer(deps: Deps, url: string, width: number, height: number): Promise<PlacedLayer> {
  const side = Math.max(1, Math.round(Math.min(width, height) * 0.18));
  const margin = Math.round(Math.min(width, height) * 0.03);
  const layer = await layerOf(deps, url, { width: side, height: side }, 'contain');
  return { ...layer, left: Math.max(0, width - side - margin), top: Math.max(0, height - side - margin) };
}

export async function chooseOverlay(
  deps: Deps,
  id: string,
  userId: string,
  overlayKey: string | null,
): Promise<PublicSnapshot> {
  const row = await ownPhoto(deps, id, userId);
  let sharedUri = row.rawCroppedUri;
  const event = await eventBySlugDate(deps, row.slugDate);
  let overlay: Overlay | undefined;
  if (overlayKey !== null) {
    overlay = event ? overlaysOf(event, row.section).find((o) => o.storageKey === overlayKey) : undefined;
    if (!overlay) throw badRequest(ERR.attendeeApp.unknownOverlay(overlayKey));
  }
  const watermarkUrl = (event?.images as Record<string, string | undefined> | undefined)?.watermarkUrl;
  // Photos only (a video clip keeps its file); a watermark file gone missing is skipped, not fatal.
  const isPhoto = !/\.(mp4|webm|mov)$/i.test(row.rawCroppedUri);
  const watermarkKey = watermarkUrl && isPhoto ? keyOfUrl(watermarkUrl) : null;
  const watermark = watermarkKey && (await deps.media.exists(watermarkKey).catch(() => false)) ? watermarkUrl : null;
  if (overlay || watermark) {
    const rawKey = keyOfUrl(row.rawCroppedUri);
    if (!rawKey) throw new AppError(422, ERR.attendeeApp.photoNotStored);
    // A random name (128 bits): nothing public (photo id, overlay) derives a composite's link.
    const sharedKey = `${path.posix.dirname(rawKey)}/shared-${randomBytes(16).toString('hex')}.jpg`;
    const jpeg = await compositeLayers(
      await deps.media.read(rawKey),
      async ({ width, height }) => [
        ...(overlay
          ? [{ ...(await layerOf(deps, overlay.urlFullSize, { width, height }, 'fill')), left: 0, top: 0 }]
          : []),
        // The event's watermark is on every photo a fan shares (spec 2 §5, Graphics).
        ...(watermark ? [await watermarkLayer(deps, watermark, width, height)] : []),
      ],
      deps.images.composite,
    );
    sharedUri = await deps.media.put(sharedKey, jpeg);
  }
  // A composite no row names goes (the photo was deleted meanwhile, or the write failed).
  const made = sharedUri !== row.rawCroppedUri ? keyOfUrl(sharedUri) : null;
  const dropMade = () => (made ? deps.media.remove(made).catch(() => undefined) : undefined);
  const updated = await setSnapshotOverlay(deps.db, id, overlayKey, sharedUri).catch(async (err: unknown) => {
    await dropMade();
    throw err;
  });
  if (!updated) {
    await dropMade();
    throw notFound(ERR.attendeeApp.photoNotFound);
  }
  // The photo keeps one composite: the one it had before goes (a ban or delete then finds all).
  const previous = row.sharedUri !== row.rawCroppedUri ? keyOfUrl(row.sharedUri) : null;
  if (previous && row.sharedUri !== sharedUri) await deps.media.remove(previous);
  deps.realtime.toEvent(updated.slugDate, 'monitor snapshotShared', withoutContacts(toSnapshot(updated)));
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
  if (!updated) throw notFound(ERR.attendeeApp.photoNotFound);
  deps.realtime.toEvent(updated.slugDate, 'monitor snapshotShared', withoutContacts(toSnapshot(updated)));
  metricsChanged(deps, updated.slugDate);
  return toPublic(updated);
}
