/**
 * The URDB API client (tariffs/refresh/client.ts) against a local stand-in of the OpenEI utility_rates
 * API: the parameters it sends, paging, retries with back-off on 429, 5xx and time-outs, and giving up.
 * No request leaves the machine.
 */
import { createUrdbClient, UrdbApiError } from '../../src/modules/tariffs/refresh/client';
import { recordedRecords, startUrdbStandIn, type StandIn } from '../helpers/urdb-stand-in';

/** Connecticut Light & Power: 14 bundled records. */
const CLP = 4176;

describe('URDB API client', () => {
  let api: StandIn;
  const delays: number[] = [];
  // A healthy answer is never timed out, however loaded the machine (a spurious retry would shift
  // every request count below); only the test of the 'hang' fault sets a time-out it waits for.
  const client = (over: { attempts?: number; apiKey?: string; timeoutMs?: number } = {}) =>
    createUrdbClient({
      apiUrl: api.url,
      apiKey: over.apiKey ?? 'test-key',
      timeoutMs: over.timeoutMs ?? 50_000,
      attempts: over.attempts ?? 5,
      backoffMs: 1000,
      pageSize: 5,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });

  beforeAll(async () => {
    api = await startUrdbStandIn(new Map([[String(CLP), recordedRecords(CLP, { newer: false })]]));
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    api.faults.length = 0;
    delays.length = 0;
  });

  it('asks for version 8, full detail, JSON, the utility by EIA id, by start date, a page at a time', async () => {
    const c = client();
    const first = await c.page(String(CLP), 0);
    const last = await c.page(String(CLP), 10);
    expect(first.items).toHaveLength(5);
    expect(last.items).toHaveLength(4);
    expect(first.rateLimitRemaining).toBe(999);
    const q = Object.fromEntries(api.requests[0]!.entries());
    expect(q).toEqual({
      version: '8',
      format: 'json',
      detail: 'full',
      api_key: 'test-key',
      eia: String(CLP),
      orderby: 'startdate',
      direction: 'asc',
      limit: '5',
      offset: '0',
    });
    expect(api.requests[1]!.get('offset')).toBe('10');
    const starts = first.items.map((r) => (r as { startdate: number }).startdate);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('tries again after a 429 (waiting as long as Retry-After says), a 503 and a time-out, doubling the back-off', async () => {
    api.faults.push({ status: 429, retryAfter: '3' }, { status: 503 }, 'hang');
    const page = await client({ timeoutMs: 2000 }).page(String(CLP), 0);
    expect(page.items).toHaveLength(5);
    expect(api.requests).toHaveLength(4);
    // 1 s doubled per try; the 429 asked for 3 s.
    expect(delays).toEqual([3000, 2000, 4000]);
  });

  it('gives up after the last try, saying what the API answered', async () => {
    api.faults.push({ status: 500 }, { status: 502 }, { status: 503 });
    const err = await client({ attempts: 3 })
      .page(String(CLP), 0)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrdbApiError);
    expect((err as UrdbApiError).attempts).toBe(3);
    expect((err as UrdbApiError).message).toMatch(/gave up after 3 tries of .*api_key=\*\*\*.*HTTP 503/);
    expect((err as UrdbApiError).message).not.toContain('test-key');
    expect(api.requests).toHaveLength(3);
  });

  it('a wrong key or an answer without items fails at once: another try would get the same', async () => {
    const wrong = await client({ apiKey: 'wrong-key' })
      .page(String(CLP), 0)
      .catch((e: unknown) => e);
    expect((wrong as UrdbApiError).status).toBe(403);
    expect((wrong as Error).message).toMatch(/HTTP 403 .*API_KEY_INVALID/);
    api.faults.push({ status: 200, body: '{"error": {"code": "NOPE", "message": "no such utility"}}' });
    const shape = await client()
      .page(String(CLP), 0)
      .catch((e: unknown) => e);
    expect((shape as Error).message).toMatch(/has no "items" list: .*no such utility/);
    expect(api.requests).toHaveLength(2);
    expect(delays).toEqual([]);
  });
});
