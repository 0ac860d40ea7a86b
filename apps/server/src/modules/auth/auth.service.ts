import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

// argon2id with the library's defaults (19 MiB, t=2), OWASP's recommended minimum.
export const hashPassword = (password: string) => hash(password, { algorithm: 2 });
export const verifyPassword = (hashed: string, password: string) => verify(hashed, password).catch(() => false);

/** Random passwords for new users, resets and the first admin: unambiguous characters. */
export function randomPassword(length = 12): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
