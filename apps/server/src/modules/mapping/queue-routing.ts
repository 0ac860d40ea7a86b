import {
  aimAt,
  camerasForSeat,
  normaliseRow,
  sectionKey,
  type Aim,
  type Seat,
  type SeatMap,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, ERR } from '../../errors.ts';
import { mapSections } from './seat-index.ts';

/**
 * A seat read by `readSeat` in the seat map's own spelling: the map's section name whatever its
 * case, and the row dictionary's label (which may carry leading zeros the reading drops).
 */
export function inMapSpelling(map: SeatMap, seat: Seat): Seat {
  const section = mapSections(map, seat.seatType).find((s) => sectionKey(s) === sectionKey(seat.section));
  const row = map.rows.find((r) => normaliseRow(r) === seat.row);
  return { ...seat, section: section ?? seat.section, row: row ?? seat.row };
}

/**
 * The camera for a fan's seat (read by `readSeat`): among the cameras whose region covers it
 * (seat type, section, rows by the row dictionary's order, seats), the one that is on with the
 * shortest queue (ties: by name), where it must point, and the seat as the map spells it. Until
 * a seat map is loaded (a venue being set up) any camera that is on takes the fan, without an aim.
 */
export function cameraForSeat(deps: Deps, read: Seat): { camera: string; aim?: Aim; seat: Seat } {
  const map = deps.seatMap.current;
  const hub = deps.cameras;
  if (!map.cameras.length) {
    const camera = hub.pickCamera();
    if (!camera) throw conflict(ERR.attendeeApp.noCameraAvailable);
    return { camera, seat: read };
  }
  const seat = inMapSpelling(map, read);
  const hits = camerasForSeat(map, seat);
  if (!hits.length) throw new AppError(422, ERR.mapping.seatNotCovered, { details: [{ key: 'seatNotCovered' }] });
  const ready = hits
    .map((hit) => ({ hit, state: hub.get(hit.camera.camera) }))
    .filter(({ hit, state }) => state?.status === 'on' && !('error' in hub.hostOf(hit.camera.camera)))
    .sort(
      (a, b) => a.state!.queue.length - b.state!.queue.length || a.hit.camera.camera.localeCompare(b.hit.camera.camera),
    );
  const best = ready[0];
  if (!best) throw conflict(ERR.attendeeApp.noCameraAvailable);
  return { camera: best.hit.camera.camera, aim: aimAt(map, best.hit, seat), seat };
}
