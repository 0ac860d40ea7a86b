import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { FAN_ID_PATTERN } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { sharedSecret } from './attendee.repository.ts';

/**
 * Fan ids issued by the server (docs/security.md §18): `fan-<32 hex>` and its token
 * `<fan id>.<HMAC-SHA256 of it, 128 bits, base64url>`, which the app keeps and sends with every
 * call. Every instance signs and checks with the same key: FAN_TOKEN_SECRET when set, else a
 * random key the first server writes to the database (`server_secrets`, name `fan-token`), so
 * tokens outlive restarts and hold on every instance sharing the database.
 */
export type FanIds = {
  issue: () => { userId: string; fanToken: string };
  /** The fan id of a valid token; null for anything else (no token, made up, altered). */
  verify: (token: unknown) => string | null;
};

const SIG_LENGTH = 22;
/**
 * Valid tokens already checked, oldest dropped first: a phone's every call (picker, page view,
 * stream, join) costs a lookup, not an HMAC (about 3 % of the server's CPU at a half-time burst).
 * Only tokens that passed are kept, so made-up ones cannot fill it.
 */
const VERIFIED_MAX = 50_000;

export function fanIdsWithKey(key: Buffer): FanIds {
  const verified = new Map<string, string>();
  const sign = (fanId: string) => createHmac('sha256', key).update(fanId).digest('base64url').slice(0, SIG_LENGTH);
  return {
    issue: () => {
      const userId = `fan-${randomBytes(16).toString('hex')}`;
      return { userId, fanToken: `${userId}.${sign(userId)}` };
    },
    verify: (token) => {
      if (typeof token !== 'string' || token.length !== 36 + 1 + SIG_LENGTH) return null;
      const known = verified.get(token);
      if (known) return known;
      const fanId = token.slice(0, 36);
      if (!FAN_ID_PATTERN.test(fanId) || token[36] !== '.') return null;
      const given = Buffer.from(token.slice(37));
      const expected = Buffer.from(sign(fanId));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
      verified.set(token, fanId);
      return fanId;
    },
  };
}

export async function createFanIds(deps: Deps): Promise<FanIds> {
  const secret =
    deps.config.fanTokenSecret ?? (await sharedSecret(deps.db, 'fan-token', randomBytes(32).toString('base64url')));
  return fanIdsWithKey(createHmac('sha256', secret).update('stadiumcam fan token').digest());
}
