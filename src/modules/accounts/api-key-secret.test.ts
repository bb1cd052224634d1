import { apiKeyPrefix, generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-secret';

describe('API key secrets', () => {
  it('hashes with SHA-256 hex (FIPS 180-2 vector for "abc")', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('generates ek_ + 43 base62 characters; prefix is the first 8 characters', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^ek_[0-9A-Za-z]{43}$/);
    expect(prefix).toBe(key.slice(0, 8));
    expect(apiKeyPrefix('ek_abcdefghij')).toBe('ek_abcde');
    expect(hash).toBe(hashApiKey(key));
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('never repeats a key and spreads over the whole alphabet', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey().key);
    expect(new Set(keys).size).toBe(200);
    const chars = new Set(keys.map((k) => k.slice(3)).join(''));
    // 200 x 43 random characters cover all 62 symbols unless generation is broken.
    for (const c of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') expect(chars.has(c)).toBe(true);
  });

  it('rejects strings that are not keys before any lookup', () => {
    for (const s of ['', 'ek_', 'ek_short', `xx_${'a'.repeat(43)}`, `ek_${'a'.repeat(42)}-`, `ek_${'a'.repeat(44)}`]) {
      expect(looksLikeApiKey(s)).toBe(false);
    }
  });
});
