/**
 * Signing per the Standard Webhooks specification (README "Verifying a delivery"), with the
 * `standardwebhooks` package: `webhook-id` is the event's id (the same on every attempt and
 * replay, so a receiver can deduplicate), `webhook-timestamp` the attempt's time in Unix seconds,
 * `webhook-signature` one `v1,<base64 HMAC-SHA256>` per secret in use, space separated.
 */
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret: `whsec_` and 24 random bytes in base64 (192 bits, the spec's 24 to 64 bytes). */
export function newSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/** The body of a delivery: `{type, timestamp, data}`, serialised once (the signature covers these exact bytes). */
export function eventBody(event: { type: string; createdAt: Date; data: unknown }): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}

/** The three Standard Webhooks headers of one attempt, signed with every secret given (the current one first). */
export function signedHeaders(eventId: string, sentAt: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const signatures = secrets.map((s) => new Webhook(s).sign(eventId, sentAt, body));
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
