import http from 'node:http';
import { FakeProviderServer } from './fake-pms';

/** One call of `POST /v1/charges` as the fake received it. */
export interface FakeChargeCall {
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The body as sent (the amount's 2 decimals are visible here). */
  raw: string;
  body: Record<string, unknown>;
}

/** A charge the fake created: one per idempotency key. */
export interface FakeCharge {
  id: string;
  body: Record<string, unknown>;
  /** How many times this key created a charge: 1, or the provider broke its promise. */
  creations: number;
}

/** Answers a charge call instead of the fake (return true once `res` is written); undefined: the normal answer. */
export type ChargeBehaviour = (call: FakeChargeCall, res: http.ServerResponse, ledger: FakePmsLedger) => boolean | void;

/**
 * The PMS data provider for the posting tests, the fault test and the bench: its units API
 * (`GET /v1/units`, paged, as provider-client.ts calls it) and its charges API (`POST /v1/charges`,
 * as the tenant-billing README describes it: 201 `{"id"}` for a new Idempotency-Key, 200 with the
 * same id for a key seen before, 400 without a key), and its connections (`GET /v1/connections/{id}`:
 * `authorize` completes a link session at the provider). Every answer waits `latencyMs`; `behaviour`
 * may answer a charge call instead (5xx, 4xx, a dropped connection).
 */
export class FakePmsLedger extends FakeProviderServer {
  readonly calls: FakeChargeCall[] = [];
  readonly charges = new Map<string, FakeCharge>();
  override pageSize = 100;
  latencyMs = 0;
  behaviour: ChargeBehaviour | undefined;
  private nextId = 1;

  /** Creates the charge of a call (as the provider would before answering); the existing one for a known key. */
  create(call: FakeChargeCall): FakeCharge {
    const key = call.idempotencyKey!;
    let charge = this.charges.get(key);
    if (!charge) {
      charge = { id: `chg_${String(this.nextId++).padStart(6, '0')}`, body: call.body, creations: 1 };
      this.charges.set(key, charge);
    }
    return charge;
  }

  /** Calls that carried `key`. */
  callsFor(key: string): number {
    return this.calls.filter((c) => c.idempotencyKey === key).length;
  }

  /**
   * Charges that are on a tenant's ledger twice: a key that created more than one, or two keys whose
   * charges say the same thing (the same unit, amount, description and date under another key).
   */
  duplicates(): string[] {
    const seen = new Map<string, string>();
    const found: string[] = [];
    for (const [key, c] of this.charges) {
      if (c.creations !== 1) found.push(key);
      const b = c.body;
      const what = JSON.stringify([b.connection_id, b.property_id, b.unit_id, b.amount, b.description, b.charge_date]);
      const other = seen.get(what);
      if (other !== undefined) found.push(`${key} (same charge as ${other})`);
      else seen.set(what, key);
    }
    return found;
  }

  protected override handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = () => {
        if (req.method === 'GET' && url.pathname === '/v1/units') return this.serveUnits(res, Object.fromEntries(url.searchParams));
        if (req.method === 'POST' && url.pathname === '/v1/charges')
          return this.serveCharge(req, Buffer.concat(chunks).toString('utf8'), res);
        if (req.method === 'GET' && this.connections.serve(url.pathname, res)) return;
        res.writeHead(404).end();
      };
      if (this.latencyMs > 0) setTimeout(answer, this.latencyMs);
      else answer();
    });
  }

  private serveCharge(req: http.IncomingMessage, raw: string, res: http.ServerResponse) {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid JSON' }));
      return;
    }
    const call: FakeChargeCall = {
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      raw,
      body,
    };
    this.calls.push(call);
    if (this.behaviour?.(call, res, this)) return;
    if (!call.idempotencyKey) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Idempotency-Key required' }));
      return;
    }
    const known = this.charges.has(call.idempotencyKey);
    const charge = this.create(call);
    res.writeHead(known ? 200 : 201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: charge.id }));
  }
}
