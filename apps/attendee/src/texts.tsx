import { createContext, useContext, useMemo } from 'react';
import { ATTENDEE_TEXTS, fillText, type AttendeeTextKey } from '@stadiumcam/contract/attendee-texts';
import type { PublicTemplate } from './api.ts';

export type T = (key: AttendeeTextKey, values?: Record<string, string | number>) => string;

/**
 * Every visible text is a row of the event's language table: the chosen language's text, else
 * the event's default language's, else the app's own English default.
 */
export function makeT(event: Pick<PublicTemplate, 'languages' | 'defaultLanguage'> | undefined, language: string): T {
  return (key, values) => {
    const texts = event?.languages[key]?.texts;
    const text = texts?.[language] || (event && texts?.[event.defaultLanguage]) || ATTENDEE_TEXTS[key].english;
    return fillText(text, values);
  };
}

export const TextsContext = createContext<T>(makeT(undefined, 'english'));
export const useT = () => useContext(TextsContext);
/** The fan's language as the event's table names it ('french'). */
export const LanguageContext = createContext('english');

/** A time of day in the fan's language ('20:31', '8:31 PM'). */
export function useTimeOfDay(): (iso: string) => string {
  const tag = languageTag(useContext(LanguageContext));
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(tag === 'und' ? undefined : tag, { hour: 'numeric', minute: '2-digit' });
    return (iso: string) => format.format(new Date(iso));
  }, [tag]);
}

const ALLOWED = new Set(['A', 'B', 'I', 'STRONG', 'EM', 'BR', 'P', 'SPAN']);

/** An html row, reduced to a few harmless tags (links only to http(s) and mailto). */
export function sanitize(html: string): string {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, 'text/html');
  const walk = (node: Element) => {
    for (const child of Array.from(node.children)) {
      walk(child);
      if (!ALLOWED.has(child.tagName)) {
        child.replaceWith(...Array.from(child.childNodes));
        continue;
      }
      const href = child.getAttribute('href');
      for (const attr of Array.from(child.attributes)) child.removeAttribute(attr.name);
      if (child.tagName === 'A' && href && /^(https?:|mailto:)/i.test(href)) {
        child.setAttribute('href', href);
        child.setAttribute('target', '_blank');
        child.setAttribute('rel', 'noopener noreferrer');
      }
    }
  };
  const root = doc.body.firstElementChild!;
  walk(root);
  return root.innerHTML;
}

export function HtmlText({ k, className }: { k: AttendeeTextKey; className?: string }) {
  const t = useT();
  const text = t(k);
  const html = useMemo(() => sanitize(text), [text]);
  return <p className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** ISO 639-1: the languages a language name can be matched to. */
const ISO_639_1 =
  'aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(
    ' ',
  );
/** Names the browsers' language names do not give. */
const ALIASES: Record<string, string> = {
  farsi: 'fa',
  filipino: 'fil',
  tagalog: 'tl',
  'chinese simplified': 'zh-Hans',
  'simplified chinese': 'zh-Hans',
  'chinese traditional': 'zh-Hant',
  'traditional chinese': 'zh-Hant',
  'brazilian portuguese': 'pt-BR',
};
const norm = (s: string): string =>
  s
    .trim()
    .toLowerCase()
    .normalize('NFC')
    .replace(/[\s_()-]+/g, ' ')
    .trim();
const cache = new Map<string, string>();
/** name → code, in English ('french') and, only when that fails, in each language itself ('français'). */
let english: Map<string, string> | undefined;
let native: Map<string, string> | undefined;
const namesBy = (display: (code: string) => string | undefined) => {
  const map = new Map<string, string>();
  for (const code of ISO_639_1) {
    const name = display(code);
    if (name && !map.has(norm(name))) map.set(norm(name), code);
  }
  return map;
};

/**
 * The BCP 47 tag of one of the event's languages, for `<html lang>` (screen readers pick their
 * voice by it): a language table names its languages ('english', 'Français') or by code ('fr',
 * 'pt-BR'). A name is matched to the ISO 639-1 language it names in English or in itself; a
 * code is kept (canonical case); anything else is 'und' (undetermined).
 */
export function languageTag(language: string): string {
  const hit = cache.get(language);
  if (hit) return hit;
  const key = norm(language);
  let tag: string | undefined = ALIASES[key];
  if (!tag) {
    const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    english ??= namesBy((code) => names.of(code));
    tag = english.get(key);
  }
  if (!tag && /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(language.trim())) {
    try {
      tag = Intl.getCanonicalLocales(language.trim())[0];
    } catch {
      tag = undefined;
    }
  }
  if (!tag && key) {
    native ??= namesBy(safeDisplay);
    tag = native.get(key);
  }
  tag ??= 'und';
  cache.set(language, tag);
  return tag;
}

function safeDisplay(code: string): string | undefined {
  try {
    return new Intl.DisplayNames([code], { type: 'language', fallback: 'none' }).of(code);
  } catch {
    return undefined;
  }
}

/** A language as its own speakers write it ('français'), for the language choice; else as the table names it. */
export function languageName(language: string): string {
  const tag = languageTag(language);
  const own = tag === 'und' ? undefined : safeDisplay(tag);
  const name = own ?? language;
  return name.charAt(0).toLocaleUpperCase(tag === 'und' ? undefined : tag) + name.slice(1);
}
