import { describe, expect, it } from 'vitest';
import { FAN_ID_PATTERN, shortUserId } from './attendee-app.contract.ts';

describe('fan ids in a camera tile', () => {
  it('shows a server-issued fan id by its last 6 digits and any other id whole', () => {
    const id = 'fan-0123456789abcdef0123456789a1b2c3';
    expect(FAN_ID_PATTERN.test(id)).toBe(true);
    expect(shortUserId(id)).toBe('fan-…a1b2c3');
    // Not a server-issued id (a host's MagicShot user, an older id, a near miss): as it is.
    for (const other of ['u-alice', 'magic-cam1-1', 'fan-0123', `${id}0`, id.toUpperCase()])
      expect(shortUserId(other)).toBe(other);
  });
});
