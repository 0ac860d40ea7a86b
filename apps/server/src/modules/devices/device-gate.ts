import type { Deps } from '../../deps.ts';
import { AppError, unauthorized, ERR } from '../../errors.ts';
import { tokenMatches } from '../../plugins/routes.ts';
import { takeQuota } from '../auth/index.ts';

/** Wrong device tokens one address may send per window; then it is refused (docs/security.md §15). */
export const DEVICE_TOKEN_FAILURES = 10;
export const DEVICE_TOKEN_WINDOW_MS = 60_000;
/** Past this many blocked addresses the expired ones are dropped (a spray of addresses stays bounded). */
const BLOCKED_PRUNE_AT = 10_000;

/**
 * The device token check of the /devices handshake and the photo upload, with a throttle per
 * client address: every wrong token is counted on the login throttle's table (`device:<address>`,
 * one atomic statement, so instances sharing the database count together); past
 * DEVICE_TOKEN_FAILURES in DEVICE_TOKEN_WINDOW_MS the address is refused for the window without
 * its token being compared, so a guess past the limit learns nothing.
 */
export class DeviceGate {
  /** Addresses past their failures on this instance: refused until this time. */
  private readonly blocked = new Map<string, number>();

  constructor(private readonly deps: Deps) {}

  /** Null when the token is right; else the error to answer (401, or 429 throttled). */
  async check(token: unknown, address: string): Promise<AppError | null> {
    const now = Date.now();
    const until = this.blocked.get(address);
    if (until !== undefined && until > now) return throttled();
    if (until !== undefined) this.blocked.delete(address);
    if (typeof token === 'string' && tokenMatches(token, this.deps.config.deviceToken)) return null;
    const counted = await takeQuota(
      this.deps,
      `device:${address}`,
      DEVICE_TOKEN_FAILURES,
      DEVICE_TOKEN_WINDOW_MS,
    ).catch((err: unknown) => {
      // The database away: the wrong token is still refused, only not counted.
      this.deps.log.warn({ err }, 'device token throttle unavailable');
      return true;
    });
    if (counted) return unauthorized(ERR.devices.invalidDeviceToken);
    if (this.blocked.size >= BLOCKED_PRUNE_AT) {
      for (const [a, t] of this.blocked) if (t <= now) this.blocked.delete(a);
    }
    this.blocked.set(address, now + DEVICE_TOKEN_WINDOW_MS);
    this.deps.log.warn({ address }, 'wrong device tokens: address throttled');
    return throttled();
  }
}

const throttled = () =>
  new AppError(429, ERR.devices.tooManyWrongTokens, {
    headers: { 'retry-after': String(DEVICE_TOKEN_WINDOW_MS / 1000) },
  });
