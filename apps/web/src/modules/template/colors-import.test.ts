import { describe, expect, it } from 'vitest';
import { COLORS_MSG, DEFAULT_COLORS } from '@stadiumcam/contract';
import { parseColorsFile } from './colors-import.ts';

const json = { name: 'x-colors.json', type: 'application/json' };

describe('colours import (spec 2 §5)', () => {
  it('keeps only known hex values, adding the missing #', () => {
    const r = parseColorsFile(
      json,
      JSON.stringify({
        colors: {
          theme: { primaryColor: 'abc', backgroundColor: 'red', bogus: '#fff' },
          emailSettings: { buttonColor: '#112233' },
        },
      }),
      DEFAULT_COLORS,
    );
    expect(r).toMatchObject({ ok: true, kept: 2 });
    if (!r.ok) return;
    expect(r.colors.theme.primaryColor).toBe('#abc');
    expect(r.colors.theme.backgroundColor).toBe(DEFAULT_COLORS.theme.backgroundColor);
    expect(r.colors.emailSettings.buttonColor).toBe('#112233');
    expect('bogus' in r.colors.theme).toBe(false);
  });
  it('answers each text of the spec', () => {
    expect(parseColorsFile({ name: 'c.txt', type: 'text/plain' }, '{}', DEFAULT_COLORS)).toEqual({
      ok: false,
      error: COLORS_MSG.invalidFileType,
    });
    expect(parseColorsFile(json, '{nope', DEFAULT_COLORS)).toEqual({ ok: false, error: COLORS_MSG.invalidJson });
    expect(parseColorsFile(json, '{"theme":{}}', DEFAULT_COLORS)).toEqual({
      ok: false,
      error: COLORS_MSG.noColorsProperty,
    });
    expect(parseColorsFile(json, '{"colors":{"theme":{"primaryColor":"blue"}}}', DEFAULT_COLORS)).toEqual({
      ok: false,
      error: COLORS_MSG.noValidColors,
    });
    expect(parseColorsFile(json, '\uFEFF{"colors":{"slideshowColor":"#000"}}', DEFAULT_COLORS)).toMatchObject({
      ok: true,
    });
  });
});
