import { type CameraState, type QueuePosition } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, notFound, ERR } from '../../errors.ts';
import { findSnapshotRow } from './attendee.repository.ts';
import { share } from './attendee.service.ts';
import { eventBySlugDate } from '../events/index.ts';
import { photoEmail } from '../snapshots/index.ts';
import { mapRows, mapSeats, mapSections } from '../mapping/index.ts';

/**
 * The camera as a fan reads it: `cam3`, `camera-3`, `Cam 3` → '3' (the venue's internal ids are
 * numbered cameras); any other id is the name the venue gave that camera and is shown as it is.
 */
export function cameraLabel(camera: string): string {
  const numbered = /^cam(?:era)?[\s_-]*0*(\d{1,4})$/i.exec(camera.trim());
  return numbered ? numbered[1] : camera;
}

/**
 * The fan's place in the camera queues and what their queue screen says (docs/attendee-app.md,
 * Queue states): from the host's last queue report (first = the one being photographed now) and
 * its live time. Camera null and state `none` when the fan is in no queue.
 */
export function queuePosition(
  deps: Deps,
  userId: string,
  states: CameraState[] = deps.cameras.states(),
): QueuePosition {
  return queuePositions(states)(userId);
}

const NOWHERE: QueuePosition = { camera: null, position: 0, state: 'none', cameraLabel: null, liveTime: 0 };

/** What the queue screen says for the fan at index `i` of this camera's queue. */
function placeAt(s: CameraState, i: number): QueuePosition {
  const state = i === 0 ? 'live' : i === 1 ? 'next' : 'waiting';
  return {
    camera: s.camera,
    position: i + 1,
    state,
    cameraLabel: cameraLabel(s.camera),
    liveTime: state === 'live' ? Math.max(0, Math.round(s.liveTime)) : 0,
  };
}

/**
 * `queuePosition` of many fans at once: one pass over the queues (a fan's first place, in the
 * same order), not one per fan (a camera with 250 queued fans would cost 250 passes per report).
 */
export function queuePositions(states: CameraState[]): (userId: string) => QueuePosition {
  const first = new Map<string, [CameraState, number]>();
  for (const s of states) s.queue.forEach((fanId, i) => first.has(fanId) || first.set(fanId, [s, i]));
  return (userId) => {
    const at = first.get(userId);
    return at ? placeAt(at[0], at[1]) : NOWHERE;
  };
}

/** The seat form's next choices: sections, then rows of the section, then seats of the row. */
export function seatChoices(
  deps: Deps,
  q: { seatType: string; section?: string; row?: string },
): { options: string[] } {
  const map = deps.seatMap.current;
  if (!q.section) return { options: [...mapSections(map, q.seatType)] };
  if (!q.row) return { options: [...mapRows(map, q.seatType, q.section)] };
  return { options: [...mapSeats(map, q.seatType, q.section, q.row.toUpperCase())] };
}

/** Sends the photo e-mail to the fan, then records the Email share (consoles hear of it). */
export async function emailPhoto(
  deps: Deps,
  id: string,
  input: { userId: string; userEmail: string; language?: string },
): Promise<{ ok: true }> {
  const row = await findSnapshotRow(deps.db, id);
  if (!row || row.userId !== input.userId || row.hidden) throw notFound(ERR.attendeeApp.photoNotFound);
  const event = await eventBySlugDate(deps, row.slugDate);
  if (!event) throw notFound(ERR.attendeeApp.photoNotFound);
  const mail = photoEmail(deps, event, [row.sharedUri || row.rawCroppedUri], { language: input.language });
  try {
    await deps.mailer.send({ to: input.userEmail, ...mail });
  } catch (err) {
    deps.log.error({ err }, 'attendee photo mail failed');
    throw new AppError(502, ERR.attendeeApp.emailFailed);
  }
  await share(deps, id, { userId: input.userId, socialSource: 'Email', userEmail: input.userEmail });
  return { ok: true };
}
