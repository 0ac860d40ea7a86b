import { createHash } from 'node:crypto';
import type { Event, PublicTemplate } from '@stadiumcam/contract';

const text = (o: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((o ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
  ) as Record<string, string>;

/**
 * The template parts an attendee app shows (DESIGN §10), read from an event. The language
 * table goes without the operators' descriptions; images as their served URLs only. `version`
 * is a hash of the rest: equal versions show the same app.
 */
export function toPublicTemplate(event: Event): PublicTemplate {
  const languages = Object.fromEntries(
    Object.entries(event.languages as Record<string, { html?: boolean; texts?: unknown }>).map(([key, row]) => [
      key,
      { ...(row.html ? { html: true } : {}), texts: text(row.texts) },
    ]),
  );
  const images = Object.fromEntries(
    Object.entries(text(event.images)).filter(([k]) => k.endsWith('Url') && !k.endsWith('RawUrl')),
  );
  const parts = {
    languages,
    availableLanguages: event.availableLanguages,
    defaultLanguage: event.defaultLanguage,
    images,
    venueType: event.venueType,
    theme: text(event.theme),
    iconColor: text(event.iconColor),
    share: event.share,
    seatType: event.seatType,
    blockedSeats: event.blockedSeats,
    geofence: event.geofence,
    triviaEnabled: event.triviaEnabled,
  };
  const version = createHash('sha1').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
  return { version, ...parts };
}
