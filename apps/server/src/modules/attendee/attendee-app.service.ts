import { ATTENDEE_APP_MSG, MSG, rowsOf, seatsOf, sectionsOf } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../errors.ts';
import { findSnapshotRow } from './attendee.repository.ts';
import { share } from './attendee.service.ts';
import { eventBySlugDate } from '../devices/events-link.ts';
import { photoEmail } from './photo-email.service.ts';

/** The fan's place in the camera queues (1 = next); camera null when in none. */
export function queuePosition(deps: Deps, userId: string): { camera: string | null; position: number } {
  for (const s of deps.cameras.states()) {
    const i = s.queue.indexOf(userId);
    if (i >= 0) return { camera: s.camera, position: i + 1 };
  }
  return { camera: null, position: 0 };
}

/** Sends the photo e-mail to the fan, then records the Email share (consoles hear of it). */
/** The seat form's next choices: sections, then rows of the section, then seats of the row. */
export function seatChoices(
  deps: Deps,
  q: { seatType: string; section?: string; row?: string },
): { options: string[] } {
  const map = deps.seatMap.current;
  if (!q.section) return { options: sectionsOf(map, q.seatType) };
  if (!q.row) return { options: rowsOf(map, q.seatType, q.section) };
  return { options: seatsOf(map, q.seatType, q.section, q.row.toUpperCase()) };
}

export async function emailPhoto(
  deps: Deps,
  id: string,
  input: { userId: string; userEmail: string; language?: string },
): Promise<{ ok: true }> {
  const row = await findSnapshotRow(deps.db, id);
  if (!row || row.userId !== input.userId || row.hidden) throw notFound(MSG.attendeeApp.photoNotFound);
  const event = await eventBySlugDate(deps, row.slugDate);
  if (!event) throw notFound(MSG.attendeeApp.photoNotFound);
  const mail = photoEmail(deps, event, [row.sharedUri || row.rawCroppedUri], { language: input.language });
  try {
    await deps.mailer.send({ to: input.userEmail, ...mail });
  } catch (err) {
    deps.log.error({ err }, 'attendee photo mail failed');
    throw new AppError(502, ATTENDEE_APP_MSG.emailFailed);
  }
  await share(deps, id, { userId: input.userId, socialSource: 'Email', userEmail: input.userEmail });
  return { ok: true };
}
