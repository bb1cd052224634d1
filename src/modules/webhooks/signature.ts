import crypto from 'node:crypto';

/** `PMS_WEBHOOK_SECRET` holds one secret or several, comma-separated (rotation: any one signs). */
export function parseSecrets(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The digests of a body, computed as it streams in: its SHA-256 (the idempotency key) and its
 * HMAC-SHA256 under every secret, so a large body is never held whole just to be verified.
 */
export class BodyDigests {
  private readonly sha = crypto.createHash('sha256');
  private readonly hmacs: crypto.Hmac[];
  size = 0;

  constructor(secrets: string[]) {
    this.hmacs = secrets.map((s) => crypto.createHmac('sha256', s));
  }

  update(chunk: Buffer): void {
    this.size += chunk.length;
    this.sha.update(chunk);
    for (const h of this.hmacs) h.update(chunk);
  }

  finish(): { sha256: string; macs: Buffer[] } {
    return { sha256: this.sha.digest('hex'), macs: this.hmacs.map((h) => h.digest()) };
  }
}

const HEADER = /^sha256=([0-9a-f]{64})$/i;

/** True when `header` has the form of a signature (`sha256=` and 64 hex digits): checked before a body is read. */
export function plausibleSignature(header: unknown): boolean {
  return typeof header === 'string' && HEADER.test(header.trim());
}

/**
 * True when `header` is `sha256=<hex>` and equals one of the computed MACs. Every MAC is
 * compared in constant time and none is skipped, so timing tells nothing about which or how much.
 */
export function signatureMatches(header: unknown, macs: Buffer[]): boolean {
  const match = typeof header === 'string' ? HEADER.exec(header.trim()) : null;
  const given = match ? Buffer.from(match[1], 'hex') : Buffer.alloc(32);
  let ok = false;
  for (const mac of macs) ok = crypto.timingSafeEqual(given, mac) || ok;
  return ok && match !== null;
}

/** The header value for a body (what the provider sends; tests and the README's curl example use it). */
export function signBody(body: string | Buffer, secret: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}
