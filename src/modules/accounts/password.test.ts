import { hashPassword, parsePasswordHash, verifyPassword } from './password';

// RFC 7914 section 12, test vector 2: scrypt("password", "NaCl", N=1024, r=8, p=16, dkLen=64).
const RFC_HASH =
  'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640';
const RFC_STORED = `scrypt$10$8$16$${Buffer.from('NaCl').toString('base64')}$${Buffer.from(RFC_HASH, 'hex').toString('base64')}`;

describe('password hashing (scrypt)', () => {
  it('verifies against the RFC 7914 test vector', async () => {
    await expect(verifyPassword('password', RFC_STORED)).resolves.toBe(true);
    await expect(verifyPassword('Password', RFC_STORED)).resolves.toBe(false);
  });

  it('stores the parameters and a fresh salt in every hash', async () => {
    const params = { logN: 10, r: 8, p: 1 };
    const a = await hashPassword('Secret123', params);
    const b = await hashPassword('Secret123', params);
    expect(a).toMatch(/^scrypt\$10\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
    expect(parsePasswordHash(a)?.params).toEqual(params);
    await expect(verifyPassword('Secret123', a)).resolves.toBe(true);
    await expect(verifyPassword('Secret124', a)).resolves.toBe(false);
  });

  it('uses N = 2^15, r = 8, p = 1 by default', async () => {
    expect(await hashPassword('Secret123')).toMatch(/^scrypt\$15\$8\$1\$/);
  });

  it('rejects malformed hashes and absurd parameters without throwing', async () => {
    for (const stored of ['', 'plain', 'scrypt$10$8$1$$', 'bcrypt$2b$10$abc', `scrypt$30$8$1$${'A'.repeat(22)}==$${'A'.repeat(43)}=`]) {
      await expect(verifyPassword('password', stored)).resolves.toBe(false);
    }
  });
});
