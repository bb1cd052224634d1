import { isCommonPassword, wordOf } from './common-passwords';

/** Issue 46 item 6, re-tried: variants of listed passwords passed the exact-match check. */
describe('common passwords (NIST SP 800-63B 5.1.1.2)', () => {
  it('takes a password word from its ends and letter stand-ins', () => {
    expect(wordOf('P@ssw0rd!2024')).toBe('password');
    expect(wordOf('Summer2024')).toBe('summer');
    expect(wordOf('2024Jordan!')).toBe('jordan');
    expect(wordOf('Kilowatt-Hour-42')).toBe('kilowatt-hour');
  });

  it.each(['Password1', 'Passw0rd!', 'Password1!', 'Summer2024', 'Password2026', 'Welcome2025!', 'Aa1aaaaa', 'Zz9zzZzz'])(
    'refuses %s',
    (p) => {
      expect(isCommonPassword(p)).toBe(true);
    },
  );

  it.each(['Kilowatt42', 'Kilowatt-Hour-42', 'Str0ngPassword', 'Passw0rd!x', 'Tr0ub4dor&3', 'Gladstone2026'])('accepts %s', (p) => {
    expect(isCommonPassword(p)).toBe(false);
  });
});
