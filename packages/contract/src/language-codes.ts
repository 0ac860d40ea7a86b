/**
 * The languages an event can offer (issue 28 §4): BCP 47 codes with their English names, for the
 * console's language picker, and the one check every way in shares (the Languages screen, its CSV
 * import, an .amp import): a language is a canonical BCP 47 code of a known language ('fr',
 * 'pt-BR'), or, for tables made before the picker, the English name of one of these ('french').
 * The attendee app's `<html lang>` is the code (or the code that name stands for).
 */
export const LANGUAGE_CODES = [
  'af',
  'am',
  'ar',
  'bg',
  'bn',
  'bs',
  'ca',
  'cs',
  'cy',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'es',
  'es-419',
  'et',
  'eu',
  'fa',
  'fi',
  'fil',
  'fr',
  'fr-CA',
  'ga',
  'gl',
  'gu',
  'ha',
  'he',
  'hi',
  'hr',
  'ht',
  'hu',
  'hy',
  'id',
  'ig',
  'is',
  'it',
  'ja',
  'ka',
  'kk',
  'km',
  'kn',
  'ko',
  'lt',
  'lv',
  'mk',
  'ml',
  'mn',
  'mr',
  'ms',
  'mt',
  'my',
  'ne',
  'nl',
  'no',
  'pa',
  'pl',
  'ps',
  'pt',
  'pt-BR',
  'ro',
  'ru',
  'sk',
  'sl',
  'so',
  'sq',
  'sr',
  'sv',
  'sw',
  'ta',
  'te',
  'th',
  'tl',
  'tr',
  'uk',
  'ur',
  'uz',
  'vi',
  'xh',
  'yo',
  'zh-Hans',
  'zh-Hant',
  'zu',
] as const;

const english = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The English name of a code ('pt-BR' → 'Brazilian Portuguese'); undefined for no known language. */
export function languageCodeName(code: string): string | undefined {
  try {
    return english.of(code);
  } catch {
    return undefined;
  }
}

/** The picker's choices: code and 'English name (code)', by name. */
export const LANGUAGE_CHOICES: { value: string; label: string }[] = LANGUAGE_CODES.map((code) => ({
  value: code,
  label: `${languageCodeName(code) ?? code} (${code})`,
})).sort((a, b) => a.label.localeCompare(b.label));

let legacy: Map<string, string> | undefined;

/** The code a language of a table stands for ('fr' → 'fr', 'french' → 'fr'); undefined when none. */
export function languageCode(language: string): string | undefined {
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(language)[0];
  } catch {
    canonical = undefined;
  }
  if (canonical === language && languageCodeName(language)) return language;
  legacy ??= new Map(LANGUAGE_CODES.map((c) => [(languageCodeName(c) ?? c).toLowerCase(), c]));
  return legacy.get(language.toLowerCase());
}
