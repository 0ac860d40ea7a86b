import {
  ATTENDEE_TEXTS,
  DEFAULT_COLORS,
  fillText,
  renderPhotoEmail,
  type AttendeeTextKey,
  type Event,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';

/** A text of the event's language table in `language` (else its default, else the app's English). */
export function eventText(
  event: Event,
  key: AttendeeTextKey,
  language?: string,
  values?: Record<string, string>,
): string {
  const texts = (event.languages as Record<string, { texts?: Record<string, string> }>)[key]?.texts ?? {};
  const text = (language && texts[language]) || texts[event.defaultLanguage] || ATTENDEE_TEXTS[key].english;
  return fillText(text, values);
}

const absolute = (publicUrl: string, url: string) => new URL(url, publicUrl).toString();

/**
 * The photo e-mail of an event: its e-mail colours, header image and texts (DESIGN §10). The
 * album's share and the attendee app's e-mail share both send it; `body` overrides the table's
 * text (the album's operator writes their own).
 */
export function photoEmail(
  deps: Deps,
  event: Event,
  photos: string[],
  opts: { language?: string; subject?: string; body?: string } = {},
): { subject: string; html: string; text: string } {
  const values = { event: event.title };
  const images = event.images as Record<string, string | undefined>;
  const { html, text } = renderPhotoEmail({
    colors: { ...DEFAULT_COLORS.emailSettings, ...(event.emailSettings as Record<string, string>) },
    headerImageUrl: images.logoUrl ? absolute(deps.config.publicUrl, images.logoUrl) : undefined,
    title: event.title,
    heading: eventText(event, 'email.heading', opts.language, values),
    body: opts.body ?? eventText(event, 'email.body', opts.language, values),
    button: eventText(event, 'email.button', opts.language, values),
    photos: photos.map((p) => absolute(deps.config.publicUrl, p)),
  });
  return { subject: opts.subject ?? eventText(event, 'email.subject', opts.language, values), html, text };
}
