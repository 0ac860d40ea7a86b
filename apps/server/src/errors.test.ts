import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import { AppError, ERR, forbidden, notFound, withKeys } from './errors.ts';

describe('AppError', () => {
  it('carries the catalogue key given at the throw as code, besides status and text', () => {
    const err = notFound(ERR.events.eventNotFound);
    expect(err).toMatchObject({ statusCode: 404, message: 'Event not found', code: 'events.eventNotFound' });
    expect(forbidden().code).toBe('common.insufficientPermissions');
    const throttled = new AppError(429, ERR.auth.loginThrottled(90), { headers: { 'retry-after': '90' } });
    expect(throttled.message).toBe('Too many failed login attempts. Please try again in 2 minute(s).');
    expect(throttled.code).toBe('auth.loginThrottled');
  });

  it('every text of the catalogue carries its own key, the text unchanged', () => {
    let fixed = 0;
    for (const [area, texts] of Object.entries(MSG)) {
      for (const [key, text] of Object.entries(texts)) {
        const keyed = (ERR as unknown as Record<string, Record<string, unknown>>)[area][key];
        if (typeof text === 'string') {
          expect(keyed).toEqual({ code: `${area}.${key}`, text });
          fixed++;
        } else expect(typeof keyed, `${area}.${key}`).toBe('function');
      }
    }
    expect(fixed).toBeGreaterThan(300);
    expect(ERR.events.unknownEvent('2026-01-01')).toEqual({
      code: 'events.unknownEvent',
      text: MSG.events.unknownEvent('2026-01-01'),
    });
  });

  it('a code stays when its text is reworded, and two keys sharing a text keep their own codes', () => {
    const reworded = withKeys({ ...MSG, events: { ...MSG.events, eventNotFound: 'This event does not exist' } });
    expect(reworded.events.eventNotFound).toEqual({ code: 'events.eventNotFound', text: 'This event does not exist' });
    expect(new AppError(404, reworded.events.eventNotFound).code).toBe(ERR.events.eventNotFound.code);
    // A code looked up from its text would give both keys of a shared text the first one's code.
    const shared = withKeys({ first: { gone: 'Gone' }, second: { missing: 'Gone' } });
    expect([shared.first.gone.code, shared.second.missing.code]).toEqual(['first.gone', 'second.missing']);
  });

  it('no ack or reply error is written in place: it names a catalogue text', () => {
    // The error of a socket ack or a reply body ({ ok: false, error: `…` }) written in place,
    // built or quoted. (A thrown AppError takes a keyed text, ERR.area.key: the types keep it.)
    const builtError = /\berror:\s*(`[^`\n]*`?|'[^'\n]*'|"[^"\n]*")/g;
    const outside: string[] = [];
    for (const file of readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.includes('test/')) continue;
      const code = readFileSync(path.join(import.meta.dirname, file), 'utf8');
      for (const [, template] of code.matchAll(builtError)) outside.push(`${file}: ${template}`);
    }
    expect(outside).toEqual([]);
  });
});
