import type { z } from 'zod';
import {
  ATTENDEE_TEXTS,
  IMAGE_KEYS,
  MSG,
  TEMPLATE_PARTS,
  type ImagesPart,
  type LanguageRow,
  type LanguagesPart,
  type TemplatePartName,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { unprocessable, ERR } from '../../errors.ts';
import { keyOfUrl } from '../../media/media-store.ts';
import { VENUE_PARTS } from './venue-parts.rules.ts';

export type PartValue<N extends TemplatePartName> = z.output<(typeof TEMPLATE_PARTS)[N]['schema']>;

/**
 * The server side of a configuration part: the spec 2 §5 rules checked again on the server.
 * `rules` answers the value to store (normalised) or throws an AppError with the rule's text.
 */
export type ServerPart<N extends TemplatePartName = TemplatePartName> = {
  name: N;
  rules?: (value: PartValue<N>, deps: Deps) => PartValue<N> | Promise<PartValue<N>>;
};

const part = <N extends TemplatePartName>(name: N, rules?: ServerPart<N>['rules']): ServerPart<N> => ({ name, rules });

export const TEMPLATE_RULE_MSG = MSG.template;

/**
 * Languages: names unique (case-insensitive), the default among them; rows only for the app's
 * keys, with description/maxLength/html from the app's catalogue (not the client's), texts
 * only for available languages and within maxLength unless the row is html.
 */
function languageRules(value: LanguagesPart): LanguagesPart {
  const seen = new Set<string>();
  for (const name of value.availableLanguages) {
    const k = name.toLowerCase();
    if (seen.has(k)) throw unprocessable(ERR.template.duplicateLanguage);
    seen.add(k);
  }
  if (!value.availableLanguages.includes(value.defaultLanguage)) {
    throw unprocessable(ERR.template.defaultNotAvailable);
  }
  const languages: Record<string, LanguageRow> = {};
  for (const [key, row] of Object.entries(value.languages)) {
    if (!Object.hasOwn(ATTENDEE_TEXTS, key)) throw unprocessable(ERR.template.unknownKey(key));
    const def = ATTENDEE_TEXTS[key as keyof typeof ATTENDEE_TEXTS];
    const isHtml = 'html' in def;
    const texts: Record<string, string> = {};
    for (const language of value.availableLanguages) {
      const text = row.texts[language];
      if (text === undefined) continue;
      if (!isHtml && [...text].length > def.maxLength) {
        throw unprocessable(ERR.template.tooLong(key, language, def.maxLength));
      }
      texts[language] = text;
    }
    languages[key] = {
      description: def.description,
      maxLength: def.maxLength,
      ...(isHtml ? { html: true } : {}),
      texts,
    };
  }
  return { ...value, languages };
}

/** Images: every URL is a file this server stored for that section (uploadImage). */
async function imageRules(value: ImagesPart, deps: Deps): Promise<ImagesPart> {
  for (const [field, url] of Object.entries(value.images)) {
    const key = IMAGE_KEYS.find((k) => field === `${k}Url` || field === `${k}RawUrl`);
    const mediaKey = url && keyOfUrl(url);
    const name = mediaKey?.split('/').at(-1) ?? '';
    const ok =
      !!key &&
      !!mediaKey &&
      mediaKey.split('/').at(-2) === 'images' &&
      name.startsWith(`${key}-`) &&
      (await deps.media.exists(mediaKey));
    if (!ok) throw unprocessable(ERR.template.imageNotFound(field));
  }
  return value;
}

/** Every part saved by `{ eventIds, ... }`; a new screen adds its line here. */
export const SERVER_PARTS = [
  part('languages', languageRules),
  part('images', imageRules),
  part('colors'),
  part('screenshots'),
  // Overlays, share, geofence, seat options, trivia, slideshow (issue 12).
  ...VENUE_PARTS,
] as ServerPart[];
