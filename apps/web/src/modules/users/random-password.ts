// No look-alike characters (0/O, 1/l/I): the admin reads the password out to the user.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random password for a new user (spec 3 §5: generated, at least 6 characters). */
export function randomPassword(length = 12): string {
  const out: string[] = [];
  const limit = 256 - (256 % ALPHABET.length); // reject the remainder so every character is equally likely
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < limit && out.length < length) out.push(ALPHABET[b % ALPHABET.length]);
    }
  }
  return out.join('');
}
