import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { eventBody, newSecret, signedHeaders } from './signing';

describe('signing per Standard Webhooks (README "Verifying a delivery")', () => {
  const event = {
    type: 'audit.finding.created',
    createdAt: new Date('2026-11-28T12:00:00Z'),
    data: { finding_id: 'f1', amount_at_issue: 3.15 },
  };

  it('signs HMAC-SHA256 over "id.timestamp.body" with the base64-decoded secret, as the spec computes it by hand', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = eventBody(event);
    expect(body).toBe(
      '{"type":"audit.finding.created","timestamp":"2026-11-28T12:00:00.000Z","data":{"finding_id":"f1","amount_at_issue":3.15}}',
    );
    const sentAt = new Date('2026-11-28T12:00:07.900Z');
    const headers = signedHeaders('evt_1', sentAt, body, [secret]);
    const expected = crypto
      .createHmac('sha256', Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'))
      .update(`evt_1.1795867207.${body}`)
      .digest('base64');
    expect(headers).toEqual({ 'webhook-id': 'evt_1', 'webhook-timestamp': '1795867207', 'webhook-signature': `v1,${expected}` });
  });

  it('a fresh secret verifies with the package; a rotated endpoint carries both signatures, each verifying', () => {
    const [current, previous] = [newSecret(), newSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = eventBody(event);
    const headers = signedHeaders('evt_2', new Date(), body, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow('No matching signature found');
  });
});
