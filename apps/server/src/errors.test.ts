import { describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
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
    expect(badRequest('Metadata is not valid JSON').code).toBe('http.400');
  });
});
