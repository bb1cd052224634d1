import crypto from 'node:crypto';
import { BodyDigests, parseSecrets, signBody, signatureMatches } from './signature';

const digest = (body: string, secrets: string[]) => {
  const d = new BodyDigests(secrets);
  // In several chunks, as a request streams in.
  for (let i = 0; i < body.length; i += 7) d.update(Buffer.from(body.slice(i, i + 7)));
  return d.finish();
};

describe('webhook signature', () => {
  const body = '{"event":"test.ping","connection_id":"c1"}';

  it('parses comma-separated secrets, trimming blanks', () => {
    expect(parseSecrets(undefined)).toEqual([]);
    expect(parseSecrets(' a , ,b,')).toEqual(['a', 'b']);
  });

  it('computes the body SHA-256 and an HMAC per secret over streamed chunks', () => {
    const { sha256, macs } = digest(body, ['s1', 's2']);
    expect(sha256).toBe(crypto.createHash('sha256').update(body).digest('hex'));
    expect(macs.map((m) => m.toString('hex'))).toEqual([
      crypto.createHmac('sha256', 's1').update(body).digest('hex'),
      crypto.createHmac('sha256', 's2').update(body).digest('hex'),
    ]);
  });

  it('accepts a signature by any of the secrets (rotation)', () => {
    const { macs } = digest(body, ['old', 'new']);
    expect(signatureMatches(signBody(body, 'old'), macs)).toBe(true);
    expect(signatureMatches(signBody(body, 'new'), macs)).toBe(true);
    expect(signatureMatches(signBody(body, 'other'), macs)).toBe(false);
  });

  it('rejects a missing, malformed or re-serialised signature, and everything without secrets', () => {
    const { macs } = digest(body, ['s']);
    const good = signBody(body, 's');
    expect(signatureMatches(undefined, macs)).toBe(false);
    expect(signatureMatches(['sha256=00'], macs)).toBe(false);
    expect(signatureMatches(good.slice('sha256='.length), macs)).toBe(false); // no prefix
    expect(signatureMatches(`sha1=${good.slice(7)}`, macs)).toBe(false);
    expect(signatureMatches(good.slice(0, -2), macs)).toBe(false);
    expect(signatureMatches(signBody(JSON.stringify(JSON.parse(body), null, 1), 's'), macs)).toBe(false);
    expect(signatureMatches(good, [])).toBe(false);
    // An all-zero header must not match an all-zero placeholder.
    expect(signatureMatches(`sha256=${'0'.repeat(64)}`, [Buffer.alloc(32)])).toBe(true);
    expect(signatureMatches('garbage', [Buffer.alloc(32)])).toBe(false);
  });

  it('accepts upper-case hex and surrounding spaces', () => {
    const { macs } = digest(body, ['s']);
    expect(signatureMatches(` sha256=${signBody(body, 's').slice(7).toUpperCase()} `, macs)).toBe(true);
  });
});
