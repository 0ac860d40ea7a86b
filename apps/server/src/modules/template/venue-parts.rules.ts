import { blockedSeatKey, geofenceProblems, rowsOf, sectionsOf, seatsOf, type BlockedSeat } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, unprocessable, ERR } from '../../errors.ts';
import { keyOfUrl } from '../../media/media-store.ts';
import type { PartValue, ServerPart } from './server-parts.ts';

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
    if (!ok) throw unprocessable(ERR.templateParts.overlayNotUploaded(o.storageKey));
  }
  return value;
}

/** Spec 2 §5 again on the server: the saved centre is the map the server draws. */
function geofenceRules(value: PartValue<'geofence'>): PartValue<'geofence'> {
  const g = value.geofence;
  const problems = geofenceProblems(g, g);
  if (problems.length) throw new AppError(422, ERR.templateParts.geofenceInvalid, { details: problems });
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
    if (o.enabled && o.forcedDisable) throw unprocessable(ERR.templateParts.seatTypeEnabledAndOff(o.type));
  }
  const offered = new Set(value.seatType.filter((o) => o.enabled || o.forcedDisable).map((o) => o.type));
  const seen = new Set<string>();
  for (const b of value.blockedSeats) {
    if (!offered.has(b.seatType)) throw unprocessable(ERR.templateParts.selectSeatType);
    if (seen.has(blockedSeatKey(b))) throw unprocessable(ERR.templateParts.seatAlreadyBlocked);
    seen.add(blockedSeatKey(b));
    if (!seatExists(deps, b)) throw unprocessable(ERR.templateParts.unknownSeatAt(b.section, b.row, b.seat));
  }
  return value;
}

/** A banner named in the settings must be a file of this server's store (the schema allows only /media). */
async function slideshowRules(value: PartValue<'slideshow'>, deps: Deps): Promise<PartValue<'slideshow'>> {
  const url = value.slideshow.slideshowBannerUrl;
  const key = url === undefined ? null : keyOfUrl(url);
  if (url !== undefined && !(key && (await deps.media.exists(key))))
    throw unprocessable(ERR.template.imageNotFound('slideshowBannerUrl'));
  return value;
}

/** The server side of the parts that touch the venue and its files; spread into SERVER_PARTS (server-parts.ts). */
export const VENUE_PARTS = [
  { name: 'overlays', rules: overlayRules },
  { name: 'share' },
  { name: 'geofence', rules: geofenceRules },
  { name: 'seatOptions', rules: seatRules },
  { name: 'trivia' },
  { name: 'slideshow', rules: slideshowRules },
] as ServerPart[];
