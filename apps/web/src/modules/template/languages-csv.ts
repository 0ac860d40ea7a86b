import Papa from 'papaparse';
import {
  ATTENDEE_TEXTS,
  LanguageNameSchema,
  MSG,
  RESERVED_LANGUAGE_NAMES,
  csvSafeText,
  csvTextOf,
  type LanguageRow,
  type LanguagesPart,
} from '@stadiumcam/contract';

/** Largest CSV the page reads (the whole table of 60 keys × 30 languages is far below). */
export const MAX_CSV_BYTES = 1024 * 1024;

export const CSV_MSG = {
  wrongType: MSG.template.csvWrongType,
  tooLarge: MSG.template.csvTooLarge,
  noKey: MSG.template.csvNoKey,
  noLanguage: MSG.template.csvNoLanguage,
};

/** The table as CSV: key, description, maxLength, then one column per language (a formula-like text behind an apostrophe). */
export function languagesToCsv(part: LanguagesPart): string {
  const rows = Object.entries(part.languages).map(([key, row]) => ({
    key,
    description: csvSafeText(row.description),
    maxLength: row.html ? '' : row.maxLength,
    ...Object.fromEntries(part.availableLanguages.map((l) => [l, csvSafeText(row.texts[l] ?? '')])),
  }));
  // Every cell quoted and formulas neutralised, as the server's exports (csvSafeText).
  return Papa.unparse(
    {
      fields: ['key', 'description', 'maxLength', ...part.availableLanguages],
      data: rows.map((r) => Object.values(r)),
    },
    { quotes: true },
  );
}

export type CsvImport =
  { ok: true; part: LanguagesPart; added: string[]; deleted: string[] } | { ok: false; errors: string[] };

/**
 * A CSV of the table (spec 2 §4, §5): languages missing from the file are deleted, new ones
 * added; texts over their row's maxLength (html rows excepted) and unknown keys are errors;
 * parse errors are listed with the row number + 2 (the file's line, header = line 1).
 */
export function parseLanguagesCsv(
  file: { name: string; type: string; size: number },
  text: string,
  current: LanguagesPart,
): CsvImport {
  if (!/\.csv$/i.test(file.name) && !['text/csv', 'application/vnd.ms-excel'].includes(file.type)) {
    return { ok: false, errors: [CSV_MSG.wrongType] };
  }
  if (file.size > MAX_CSV_BYTES) return { ok: false, errors: [CSV_MSG.tooLarge] };
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
    transformHeader: (h) => h.trim(),
  });
  const errors = parsed.errors.map((e) => `Row ${(e.row ?? 0) + 2}: ${e.message}`);
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes('key')) errors.push(CSV_MSG.noKey);
  const languages = fields.filter((f) => !RESERVED_LANGUAGE_NAMES.includes(f.toLowerCase()));
  if (fields.includes('key') && !languages.length) errors.push(CSV_MSG.noLanguage);
  const seen = new Set<string>();
  for (const l of languages) {
    const check = LanguageNameSchema.safeParse(l);
    if (!check.success) errors.push(`Column "${l}": ${check.error.issues[0].message}`);
    if (seen.has(l.toLowerCase())) errors.push(`Column "${l}": This language already exists`);
    seen.add(l.toLowerCase());
  }
  if (errors.length) return { ok: false, errors };

  const table: Record<string, LanguageRow> = {};
  // Rows the file leaves out keep their texts in the languages that stay.
  for (const [key, row] of Object.entries(current.languages)) {
    table[key] = { ...row, texts: Object.fromEntries(languages.map((l) => [l, row.texts[l] ?? ''])) };
  }
  parsed.data.forEach((r, i) => {
    const key = (r.key ?? '').trim();
    if (!Object.hasOwn(ATTENDEE_TEXTS, key)) {
      errors.push(`Row ${i + 2}: unknown key "${key.slice(0, 60)}"`);
      return;
    }
    const def = ATTENDEE_TEXTS[key as keyof typeof ATTENDEE_TEXTS];
    const texts: Record<string, string> = {};
    for (const l of languages) {
      // The apostrophe the export put before a formula-like text comes off (csvTextOf).
      const value = csvTextOf(r[l] ?? '');
      if (!('html' in def) && [...value].length > def.maxLength) {
        errors.push(`Row ${i + 2}: the ${l} text is longer than ${def.maxLength} characters`);
      }
      texts[l] = value;
    }
    table[key] = {
      description: def.description,
      maxLength: def.maxLength,
      ...('html' in def ? { html: true } : {}),
      texts,
    };
  });
  if (errors.length) return { ok: false, errors };
  const before = current.availableLanguages;
  return {
    ok: true,
    part: {
      languages: table,
      availableLanguages: languages,
      defaultLanguage: languages.includes(current.defaultLanguage) ? current.defaultLanguage : languages[0],
    },
    added: languages.filter((l) => !before.includes(l)),
    deleted: before.filter((l) => !languages.includes(l)),
  };
}
