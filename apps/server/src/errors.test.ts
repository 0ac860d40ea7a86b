import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MSG, msgKeyOf } from '@stadiumcam/contract';
import { AppError, badRequest, forbidden, notFound } from './errors.ts';

describe('AppError', () => {
  it('carries the catalogue key of its text as code, besides status and text', () => {
    const err = notFound(MSG.events.eventNotFound);
    expect(err).toMatchObject({ statusCode: 404, message: 'Event not found', code: 'events.eventNotFound' });
    expect(forbidden().code).toBe('common.insufficientPermissions');
  });

  it('takes the key given for a text built from a number; a text outside the catalogue gets http.<status>', () => {
    const err = new AppError(429, MSG.auth.loginThrottled(90), { code: 'auth.loginThrottled' });
    expect(err.message).toBe('Too many failed login attempts. Please try again in 2 minute(s).');
    expect(err.code).toBe('auth.loginThrottled');
    expect(badRequest('A text outside the catalogue').code).toBe('http.400');
    expect(badRequest(MSG.devices.metadataNotJson).code).toBe('devices.metadataNotJson');
  });

  it('the server builds no error text outside the catalogue: a thrown fixed text is a catalogue text, no template literal is thrown, and no ack or reply error is written in place', () => {
    // What a throw helper or `new AppError(status, …)` is given: a quoted fixed text must be a
    // catalogue text; a template literal must be a catalogue function instead (MSG.area.key(value)).
    const thrown =
      /(?:\bnew AppError\(\s*[^,;]+?,\s*|\b(?:badRequest|notFound|conflict|forbidden|unprocessable|unauthorized)\(\s*)(?:'([^'\n]*)'|"([^"\n]*)"|(`[^`\n]*`?))/g;
    // The error of a socket ack or a reply body ({ ok: false, error: `…` }) written in place,
    // built or quoted: it names a catalogue text instead.
    const builtError = /\berror:\s*(`[^`\n]*`?|'[^'\n]*'|"[^"\n]*")/g;
    const outside: string[] = [];
    for (const file of readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.includes('test/')) continue;
      const code = readFileSync(path.join(import.meta.dirname, file), 'utf8');
      for (const [, single, double, template] of code.matchAll(thrown)) {
        const text = single ?? double;
        if (text === undefined) outside.push(`${file}: ${template}`);
        else if (!msgKeyOf(text)) outside.push(`${file}: ${text}`);
      }
      for (const [, template] of code.matchAll(builtError)) outside.push(`${file}: ${template}`);
    }
    expect(outside).toEqual([]);
  });
});
