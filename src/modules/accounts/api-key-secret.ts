import crypto from 'node:crypto';

/** Marks our keys in logs and secret scanners. Short, so the listed 8-character prefix still carries 5 random characters. */
export const API_KEY_MARKER = 'ek_';
export const API_KEY_PREFIX_LENGTH = 8;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters are about 256 bits of entropy. */
const RANDOM_LENGTH = 43;
const KEY_FORMAT = new RegExp(`^${API_KEY_MARKER}[0-9A-Za-z]{${RANDOM_LENGTH}}$`);

/** Uniform base62 characters by rejection sampling (bytes >= 248 would bias the modulo). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/**
 * A high-entropy key needs no slow hash: SHA-256 is enough to make a leaked
 * table useless, and lets a request find its key by an indexed equality lookup.
 */
export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX_LENGTH);
}

/** Cheap shape check before touching the database. */
export function looksLikeApiKey(key: string): boolean {
  return KEY_FORMAT.test(key);
}

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_MARKER + randomBase62(RANDOM_LENGTH);
  return { key, prefix: apiKeyPrefix(key), hash: hashApiKey(key) };
}
