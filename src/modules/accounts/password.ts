import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  logN: number;
  r: number;
  p: number;
}

/**
 * Defaults: N = 2^15, r = 8, p = 1, i.e. 32 MiB of memory per hash: costly on
 * purpose, so guessing stored passwords is too. The parameters are written into
 * every hash, so they can be raised later without invalidating stored passwords.
 */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ logN: 15, r: 8, p: 1 });

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const FORMAT = /^scrypt\$(\d{1,2})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function derive(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  const N = 2 ** params.logN;
  // scrypt needs 128 * N * r bytes; allow twice that so Node's default 32 MiB cap does not reject it.
  const maxmem = 256 * N * params.r + 1024 * 1024;
  return scrypt(password.normalize('NFKC'), salt, keyLength, { N, r: params.r, p: params.p, maxmem });
}

/** Hashes a password as `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>` with a fresh random salt. */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = crypto.randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, params, KEY_LENGTH);
  return `scrypt$${params.logN}$${params.r}$${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Parses a stored hash; null when it is not in our format (or has parameters we refuse to run). */
export function parsePasswordHash(stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | null {
  const m = FORMAT.exec(stored);
  if (!m) return null;
  const params = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Bounds keep a corrupted or hostile row from making one login allocate gigabytes.
  if (params.logN < 1 || params.logN > 20 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return null;
  const salt = Buffer.from(m[4], 'base64');
  const hash = Buffer.from(m[5], 'base64');
  if (salt.length === 0 || hash.length === 0) return null;
  return { params, salt, hash };
}

/** Recomputes the hash with the stored salt and parameters and compares in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.params, parsed.hash.length);
  return crypto.timingSafeEqual(candidate, parsed.hash);
}
