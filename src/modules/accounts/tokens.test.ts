import jwt from 'jsonwebtoken';
import { issueAccessToken } from './tokens';

describe('issueAccessToken', () => {
  const secret = 'unit-test-secret-0123456789abcdefghij';

  it('signs HS256 with sub, iat from the given clock and exp = iat + lifetime', () => {
    const token = issueAccessToken({ secret, userId: 'u-1', now: new Date('2026-01-01T00:00:00.900Z'), lifetimeMinutes: 1440 });
    const decoded = jwt.decode(token, { complete: true })!;
    expect(decoded.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    // 2026-01-01T00:00:00Z is 1767225600 seconds after the epoch; fractions are dropped.
    expect(decoded.payload).toEqual({ sub: 'u-1', iat: 1767225600, exp: 1767225600 + 86400 });
    expect(() => jwt.verify(token, secret, { algorithms: ['HS256'], clockTimestamp: 1767225600 })).not.toThrow();
    expect(() =>
      jwt.verify(token, 'another-secret-0123456789abcdefghijk', { algorithms: ['HS256'], clockTimestamp: 1767225600 }),
    ).toThrow();
  });
});
