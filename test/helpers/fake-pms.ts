import http from 'node:http';
import { closeServer, listenLocally } from './local-server';

export interface FakeUnit {
  id: string;
  property_id: string;
  unit_number: string;
  sqft?: number | null;
  bedrooms?: number | null;
  bathrooms?: number | null;
  status: 'vacant' | 'occupied';
  current_lease?: {
    resident_name: string | null;
    occupant_count: number | null;
    start_date: string | null;
    end_date: string | null;
  } | null;
}

export interface FakeRequest {
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
}

/** How the fake answers one request; undefined means "serve the units". */
export type FakeBehaviour = (req: FakeRequest, res: http.ServerResponse) => boolean | void;

/**
 * The provider's connections, as the linking handshake needs them: the connect flow, completed
 * with a link token, creates a connection whose `reference` is that token, and
 * `GET /v1/connections/{id}` reports it (404 for a connection it does not know).
 */
export class FakeConnections {
  /** connection id -> the link token its connect flow was completed with. */
  readonly references = new Map<string, string>();

  /** Completes a link session at the provider: `connectionId` now reports `linkToken` as its reference. */
  authorize(connectionId: string, linkToken: string): void {
    this.references.set(connectionId, linkToken);
  }

  /** Serves `GET /v1/connections/{id}`; false for any other path. */
  serve(pathname: string, res: http.ServerResponse): boolean {
    const m = /^\/v1\/connections\/([^/]+)$/.exec(pathname);
    if (!m) return false;
    const id = decodeURIComponent(m[1]);
    const reference = this.references.get(id);
    if (reference === undefined)
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'connection not found' }));
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, reference }));
    return true;
  }
}

/**
 * What every fake PMS provider is: a local server, its units per connection and PMS property
 * (`setUnits`), and its connections (`authorize` completes a link session at the provider).
 * A subclass answers the requests (`handle`).
 */
export abstract class FakeProviderServer {
  readonly units = new Map<string, FakeUnit[]>();
  readonly connections = new FakeConnections();
  /** Units per page of `GET /v1/units`. */
  pageSize = 50;
  private server = http.createServer((req, res) => this.handle(req, res));

  static key(connectionId: string, pmsPropertyId: string) {
    return `${connectionId}|${pmsPropertyId}`;
  }

  setUnits(connectionId: string, pmsPropertyId: string, units: FakeUnit[]) {
    this.units.set(FakeProviderServer.key(connectionId, pmsPropertyId), units);
  }

  /** Completes a link session at the provider: `connectionId` now reports `linkToken` as its reference. */
  authorize(connectionId: string, linkToken: string): void {
    this.connections.authorize(connectionId, linkToken);
  }

  /** Listens on `port` (default: any free one); returns the base URL. */
  start(port = 0): Promise<string> {
    return listenLocally(this.server, port);
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void;

  /** Answers `GET /v1/units` (its query: connection_id, property_id, page) with a page of the units set for them. */
  protected serveUnits(res: http.ServerResponse, query: Record<string, string>) {
    const all = this.units.get(FakeProviderServer.key(query.connection_id, query.property_id)) ?? [];
    const page = Number(query.page ?? '1');
    const data = all.slice((page - 1) * this.pageSize, page * this.pageSize);
    const next = page * this.pageSize < all.length ? page + 1 : null;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, meta: { page, next_page: next } }));
  }
}

/**
 * The PMS data provider's units API (`GET /v1/units`, as provider-client.ts calls it), served
 * on a local port for tests and the bench: `units[connection|property]` paged `pageSize` at a
 * time; `behaviour` may answer instead (errors, time-outs, garbage) by writing the response and
 * returning true. It also serves its connections (`GET /v1/connections/{id}`): `authorize`
 * completes a link session at the provider. With `servesUnits` false, `/v1/units` answers 404
 * (imports fail, as with no provider: for tests whose units come from webhook events only).
 */
export class FakePmsProvider extends FakeProviderServer {
  readonly requests: FakeRequest[] = [];
  behaviour: FakeBehaviour | undefined;
  servesUnits = true;

  protected override handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const r: FakeRequest = { path: url.pathname, query: Object.fromEntries(url.searchParams), authorization: req.headers.authorization };
    this.requests.push(r);
    if (this.behaviour?.(r, res)) return;
    if (this.connections.serve(url.pathname, res)) return;
    if (url.pathname !== '/v1/units' || !this.servesUnits) {
      res.writeHead(404).end();
      return;
    }
    this.serveUnits(res, r.query);
  }
}

export function fakeUnit(i: number, pmsPropertyId: string, overrides: Partial<FakeUnit> = {}): FakeUnit {
  const occupied = i % 4 !== 0;
  return {
    id: `u${i}`,
    property_id: pmsPropertyId,
    unit_number: String(100 + i),
    sqft: 600 + (i % 5) * 100,
    bedrooms: 1 + (i % 3),
    bathrooms: 1,
    status: occupied ? 'occupied' : 'vacant',
    current_lease: occupied
      ? { resident_name: `Resident ${i}`, occupant_count: 1 + (i % 4), start_date: '2025-01-01', end_date: '2025-12-31' }
      : null,
    ...overrides,
  };
}
