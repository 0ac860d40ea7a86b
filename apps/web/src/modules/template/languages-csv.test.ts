import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { ATTENDEE_TEXTS, MSG, defaultLanguageTable, type LanguagesPart } from '@stadiumcam/contract';
import { CSV_MSG, languagesToCsv, parseLanguagesCsv } from './languages-csv.ts';

const current = (): LanguagesPart => ({
  languages: defaultLanguageTable(),
  availableLanguages: ['english'],
  defaultLanguage: 'english',
});
const csv = (text: string, size = text.length) => ({ name: 'table.csv', type: 'text/csv', size });

describe('languages CSV (spec 2 §4, §5)', () => {
  it('round-trips a modified cell and a new language', () => {
    const table = Papa.parse<Record<string, string>>(languagesToCsv(current()), { header: true }).data;
    for (const row of table) row.french = row.key === 'landing.start' ? 'Commencer' : '';
    table.find((r) => r.key === 'landing.start')!.english = 'Go';
    const text = Papa.unparse(table);
    const r = parseLanguagesCsv(csv(text), text, current());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.added).toEqual(['french']);
    expect(r.deleted).toEqual([]);
    expect(r.part.languages['landing.start'].texts).toEqual({ english: 'Go', french: 'Commencer' });
    expect(r.part.languages['landing.legal'].texts.english).toBe(current().languages['landing.legal'].texts.english);
  });
  it('quotes formula-like texts on export like the other exports, and reads them back unchanged (issue 27 §11)', () => {
    const texts = ['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(A1)', '\tx', '\rx', "'=x", "'x", 'x'];
    const inFile = ['\'=HYPERLINK("http://x","y")', "'+1", "'-2", "'@SUM(A1)", "'\tx", "'\rx", "''=x", "'x", 'x'];
    const part = current();
    const keys = Object.keys(part.languages)
      .filter((k) => !part.languages[k].html && part.languages[k].maxLength >= 30)
      .slice(0, texts.length);
    keys.forEach((k, i) => (part.languages[k].texts.english = texts[i]));
    const text = languagesToCsv(part);
    // Every cell quoted, as the server's CSVs.
    expect(text.split('\r\n')[0]).toBe('"key","description","maxLength","english"');
    const rows = Papa.parse<string[]>(text).data;
    expect(keys.map((k) => rows.find((r) => r[0] === k)![3])).toEqual(inFile);
    const back = parseLanguagesCsv(csv(text), text, current());
    expect(back.ok).toBe(true);
    if (back.ok) expect(keys.map((k) => back.part.languages[k].texts.english)).toEqual(texts);
  });
  it('deletes languages missing from the file and keeps a valid default', () => {
    const before = { ...current(), availableLanguages: ['english', 'french'], defaultLanguage: 'french' };
    const text = '\uFEFFkey,english\nlanding.start,Begin\n';
    const r = parseLanguagesCsv(csv(text), text, before);
    expect(r).toMatchObject({ ok: true, deleted: ['french'], added: [] });
    if (r.ok) expect(r.part.defaultLanguage).toBe('english');
  });
  it('lists errors with the row number + 2', () => {
    const long = 'x'.repeat(ATTENDEE_TEXTS['landing.start'].maxLength + 1);
    const text = `key,english\nlanding.title,Hi\nlanding.start,${long}\nnope,x\n`;
    const r = parseLanguagesCsv(csv(text), text, current());
    expect(r).toEqual({
      ok: false,
      errors: [
        `Row 3: the english text is longer than ${ATTENDEE_TEXTS['landing.start'].maxLength} characters`,
        'Row 4: unknown key "nope"',
      ],
    });
    const quotes = 'key,english\nlanding.start,"Go\n';
    const q = parseLanguagesCsv(csv(quotes), quotes, current());
    expect(q.ok).toBe(false);
    if (!q.ok) expect(q.errors[0]).toMatch(/^Row \d+: Quoted field unterminated/);
  });
  it('refuses wrong columns, other files and huge files', () => {
    expect(parseLanguagesCsv(csv('fr,de\n1,2'), 'fr,de\n1,2', current())).toEqual({
      ok: false,
      errors: [CSV_MSG.noKey],
    });
    // A column that is not a language code (nor a former table's English name of one): issue 28 §4.
    expect(parseLanguagesCsv(csv('key,english,Fr\n'), 'key,english,Fr\n', current())).toEqual({
      ok: false,
      errors: [`Column "Fr": ${MSG.template.notALanguageCode}`],
    });
    expect(parseLanguagesCsv(csv('key,description\n'), 'key,description\n', current())).toEqual({
      ok: false,
      errors: [CSV_MSG.noLanguage],
    });
    expect(parseLanguagesCsv({ name: 'x.json', type: 'application/json', size: 2 }, '{}', current())).toEqual({
      ok: false,
      errors: [CSV_MSG.wrongType],
    });
    expect(parseLanguagesCsv(csv('', 10 * 1024 * 1024), '', current())).toEqual({
      ok: false,
      errors: [CSV_MSG.tooLarge],
    });
  });
});
