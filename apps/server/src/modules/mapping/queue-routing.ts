import { MSG, aimAt, camerasForSeat, type Aim, type Seat } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, conflict } from '../../errors.ts';

export const NO_CAMERA = 'No camera is available';

/**
 * The camera for a fan's seat: among the cameras whose region covers it (seat type, section,
 * rows by the row dictionary's order, seats), the one that is on with the shortest queue
 * (ties: by name), and where it must point. Until a seat map is loaded (a venue being set up)
 * any camera that is on takes the fan, without an aim.
 */
export function cameraForSeat(deps: Deps, seat: Seat): { camera: string; aim?: Aim } {
  const map = deps.seatMap.current;
  const hub = deps.cameras;
  if (!map.cameras.length) {
    const camera = hub.pickCamera();
    if (!camera) throw conflict(NO_CAMERA);
    return { camera };
  }
  const hits = camerasForSeat(map, seat);
  if (!hits.length)
    throw new AppError(422, MSG.mapping.seatNotCovered, {
      code: 'mapping.seatNotCovered',
      details: [{ key: 'seatNotCovered' }],
    });
  const ready = hits
    .map((hit) => ({ hit, state: hub.get(hit.camera.camera) }))
    .filter(({ hit, state }) => state?.status === 'on' && !('error' in hub.hostOf(hit.camera.camera)))
    .sort(
      (a, b) => a.state!.queue.length - b.state!.queue.length || a.hit.camera.camera.localeCompare(b.hit.camera.camera),
    );
  const best = ready[0];
  if (!best) throw conflict(NO_CAMERA);
  return { camera: best.hit.camera.camera, aim: aimAt(map, best.hit, seat) };
}
