import {
  MSG,
  blockedSeatKey,
  geofenceProblems,
  rowsOf,
  sectionsOf,
  seatsOf,
  type BlockedSeat,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, unprocessable } from '../../errors.ts';
import { keyOfUrl } from '../../media/media-store.ts';
import type { PartValue, ServerPart } from './template.parts.ts';

/** An overlay entry must name a file this server stored through the overlay upload. */
async function overlayRules(value: PartValue<'overlays'>, deps: Deps): Promise<PartValue<'overlays'>> {
  for (const o of value.overlays) {
    const key = keyOfUrl(o.urlFullSize);
    const ok =
      !!key &&
      key === o.storageKey &&
      key.split('/').at(-2) === 'overlays' &&
      [o.urlRaw, o.urlMediumSize].every((u) => u === o.urlFullSize) &&
      (await deps.media.exists(key));
    if (!ok) throw unprocessable(MSG.templateParts.overlayNotUploaded(o.storageKey));
  }
  return value;
}

/** Spec 2 §5 again on the server: the saved centre is the map the server draws. */
function geofenceRules(value: PartValue<'geofence'>): PartValue<'geofence'> {
  const g = value.geofence;
  const problems = geofenceProblems(g, g);
  if (problems.length) throw new AppError(422, MSG.templateParts.geofenceInvalid, { details: problems });
  return value;
}

/** A blocked seat must exist in the venue's seat map (DESIGN §11). */
export function seatExists(deps: Deps, s: BlockedSeat): boolean {
  const map = deps.seatMap.current;
  return (
    sectionsOf(map, s.seatType).includes(s.section) &&
    rowsOf(map, s.seatType, s.section).includes(s.row.toUpperCase()) &&
    seatsOf(map, s.seatType, s.section, s.row.toUpperCase()).includes(s.seat)
  );
}

function seatRules(value: PartValue<'seatOptions'>, deps: Deps): PartValue<'seatOptions'> {
  for (const o of value.seatType) {
    // A type is either on, or off by the operator (forcedDisable), or off by the venue.
    if (o.enabled && o.forcedDisable) throw unprocessable(MSG.templateParts.seatTypeEnabledAndOff(o.type));
  }
  const offered = new Set(value.seatType.filter((o) => o.enabled || o.forcedDisable).map((o) => o.type));
  const seen = new Set<string>();
  for (const b of value.blockedSeats) {
    if (!offered.has(b.seatType)) throw unprocessable(MSG.templateParts.selectSeatType);
    if (seen.has(blockedSeatKey(b))) throw unprocessable(MSG.templateParts.seatAlreadyBlocked);
    seen.add(blockedSeatKey(b));
    if (!seatExists(deps, b)) throw unprocessable(MSG.templateParts.unknownSeatAt(b.section, b.row, b.seat));
  }
  return value;
}

/** Spread into SERVER_PARTS (template.parts.ts). */
export const SERVER_PARTS_2 = [
  { name: 'overlays', rules: overlayRules },
  { name: 'share' },
  { name: 'geofence', rules: geofenceRules },
  { name: 'seatOptions', rules: seatRules },
  { name: 'trivia' },
  { name: 'slideshow' },
] as ServerPart[];
