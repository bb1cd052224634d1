import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { FakePmsProvider, fakeUnit, type FakeUnit } from '../helpers/fake-pms';
import { createProperty } from '../pm/helpers';
import { client } from '../webhooks/helpers';
import { bindConnectionDirectly, linkPms } from '../helpers/pms-link';
import { errorBody } from '../helpers/error-body';

const lease = (name: string, occupants: number, start: string | null = null, end: string | null = null) => ({
  resident_name: name,
  occupant_count: occupants,
  start_date: start,
  end_date: end,
});

const calculateFromPms = (t: TestApp, token: string, body: unknown) =>
  request(t.app)
    .post('/api/v1/billing/calculate-from-pms')
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);
const historyTotalOf = async (t: TestApp, token: string, propertyId: string) =>
  (await request(t.app).get(`/api/v1/billing/history/${propertyId}`).set('Authorization', `Bearer ${token}`).expect(200)).body.total;

/** A property of `token`'s user linked to PMS property `pmsId` on connection `conn`, with an active configuration of `method`. */
async function billedOn(
  t: TestApp,
  token: string,
  fake: FakePmsProvider,
  conn: string,
  pmsId: string,
  units: FakeUnit[],
  config: Record<string, unknown> = { method: 'occupant_count' },
) {
  const property = await createProperty(t, token);
  fake.setUnits(conn, pmsId, units);
  await linkPms(t, token, property.id, { connection_id: conn, pms_property_id: pmsId }, fake);
  // The import the link queued, out of the way.
  await eventually(async () => {
    const link = (await client(t, token).get(`/pm/properties/${property.id}/pms`).expect(200)).body;
    expect(link.last_synced_at ?? link.last_sync_error).not.toBeNull();
  });
  const cfg = await request(t.app)
    .post('/api/v1/billing/config')
    .set('Authorization', `Bearer ${token}`)
    .send({ property_id: property.id, utility_types: ['water'], ...config })
    .expect(201);
  return {
    propertyId: property.id,
    body: {
      property_id: property.id,
      billing_config_id: cfg.body.id,
      billing_period_start: '2026-03-01',
      billing_period_end: '2026-03-31',
      total_amount: 1000,
      utility_type: 'water',
    },
  };
}

describe('POST /billing/calculate-from-pms', () => {
  let t: TestApp;
  let token: string;
  const fake = new FakePmsProvider();

  beforeAll(async () => {
    const url = await fake.start();
    // The provider client's own time-out (10 s by default): on a busy machine a short one fired on
    // pages the fake was answering, and a retry fetched them twice. The time-out case has its own app below.
    t = await createTestApp({ jobs: true, env: { PMS_API_URL: url, PMS_API_KEY: 'k' } });
    token = (await registerUser(t)).token;
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });
  beforeEach(() => {
    fake.behaviour = undefined;
    fake.pageSize = 2;
  });

  const post = (body: unknown, as = token) => calculateFromPms(t, as, body);
  const historyTotal = (propertyId: string) => historyTotalOf(t, token, propertyId);
  const billed = (conn: string, pmsId: string, units: FakeUnit[], config?: Record<string, unknown>) =>
    billedOn(t, token, fake, conn, pmsId, units, config);

  it("fetches every page of units when called, allocates by the configuration's method and stores the result", async () => {
    const units = [
      fakeUnit(1, 'P1', { current_lease: lease('Ana', 2) }),
      fakeUnit(2, 'P1', { current_lease: lease('Ben', 3) }),
      fakeUnit(3, 'P1', { status: 'vacant', current_lease: null }),
    ];
    const { propertyId, body } = await billed('conn-calc', 'P1', units);
    const before = fake.requests.length;
    const res = await post(body).expect(200);
    // Every page, in order. A page asked for again is a retry (after a time-out, which CONTRACT
    // says is retried), not a second read of the units: the result below counts each unit once.
    expect([...new Set(fake.requests.slice(before).map((r) => r.query.page))]).toEqual(['1', '2']);
    expect(res.body).toMatchObject({ property_id: propertyId, method: 'occupant_count', units_billed: 2, units_vacant: 1, source: 'pms' });
    expect(
      res.body.unit_bills.map((u: { unit_id: string; tenant_name: string; base_charge: number; is_vacant: boolean }) => [
        u.unit_id,
        u.tenant_name,
        u.base_charge,
        u.is_vacant,
      ]),
    ).toEqual([
      ['u1', 'Ana', 400, false],
      ['u2', 'Ben', 600, false],
      ['u3', '', 0, true],
    ]);
    expect(await historyTotal(propertyId)).toBe(1);
  });

  it('a lease that ends inside the period prorates the unit (move-out)', async () => {
    const units = [
      fakeUnit(1, 'P2', { sqft: 1000, current_lease: lease('Ana', 1, '2025-01-01', '2026-03-15') }),
      fakeUnit(2, 'P2', { sqft: 1000, current_lease: lease('Ben', 1, '2025-01-01', null) }),
    ];
    const { body } = await billed('conn-calc', 'P2', units, { method: 'sqft' });
    const res = await post(body).expect(200);
    const [a, b] = res.body.unit_bills;
    expect([a.occupied_days, b.occupied_days]).toEqual([15, 31]);
    // Issue 46 replaced per-unit rounding half up with rounding down (never more than the bill): a cent may stay with the owner.
    expect(Math.round((a.base_charge + b.base_charge) * 100)).toBeGreaterThanOrEqual(99_999);
    expect(Math.round((a.base_charge + b.base_charge) * 100)).toBeLessThanOrEqual(100_000);
    expect(res.body.reconciliation.billed_to_tenants + res.body.reconciliation.rounding_difference).toBeCloseTo(1000, 2);
    expect(a.base_charge).toBeLessThan(b.base_charge);
  });

  it.each([
    ['a 500 on every try', (res: import('node:http').ServerResponse) => res.writeHead(500).end()],
    ['garbage JSON', (res: import('node:http').ServerResponse) => res.end('{"data": [')],
  ])('502 and nothing stored on %s', async (_name, answer) => {
    const { propertyId, body } = await billed('conn-calc', `P-fail-${Math.random()}`, [fakeUnit(1, 'x')]);
    fake.behaviour = (_r, res) => {
      answer(res);
      return true;
    };
    const res = await post(body).expect(502);
    expect(res.body).toEqual(errorBody({ detail: 'Failed to fetch tenant data from PMS' }));
    expect(await historyTotal(propertyId)).toBe(0);
  });

  it('502 and nothing stored when a later page fails or the pages never end', async () => {
    const { propertyId, body } = await billed('conn-calc', 'P-pages', [
      fakeUnit(1, 'P-pages'),
      fakeUnit(2, 'P-pages'),
      fakeUnit(3, 'P-pages'),
    ]);
    fake.behaviour = (r, res) => {
      if (r.query.page !== '2') return false;
      res.writeHead(503).end();
      return true;
    };
    await post(body).expect(502);
    fake.behaviour = (r, res) => {
      const page = Number(r.query.page);
      res.end(JSON.stringify({ data: [fakeUnit(page, 'P-pages')], meta: { page, next_page: page + 1 } }));
      return true;
    };
    await post(body).expect(502);
    expect(await historyTotal(propertyId)).toBe(0);
  });

  it("400 without a PMS link; 404 for a property that is not the caller's; 422 when the PMS lacks the method's factor", async () => {
    const property = await createProperty(t, token);
    const cfg = await request(t.app)
      .post('/api/v1/billing/config')
      .set('Authorization', `Bearer ${token}`)
      .send({ property_id: property.id, method: 'sqft', utility_types: ['water'] })
      .expect(201);
    const body = {
      property_id: property.id,
      billing_config_id: cfg.body.id,
      billing_period_start: '2026-03-01',
      billing_period_end: '2026-03-31',
      total_amount: 10,
      utility_type: 'water',
    };
    expect((await post(body).expect(400)).body).toEqual(errorBody({ detail: 'No PMS integration configured for this property' }));
    const bob = await registerUser(t);
    expect((await post(body, bob.token).expect(404)).body).toEqual(errorBody({ detail: 'Property not found' }));

    const { body: noSqft } = await billed('conn-calc', 'P-nosqft', [fakeUnit(1, 'P-nosqft', { sqft: null })], { method: 'sqft' });
    const res = await post(noSqft).expect(422);
    expect(res.body.detail).toBe('sqft required for sqft allocation method');
  });

  it('400 for every property when the provider is not configured', async () => {
    const bare = await createTestApp();
    try {
      const user = await registerUser(bare);
      const property = await createProperty(bare, user.token);
      // Bound while a provider was configured (no link session can be completed without one).
      await bindConnectionDirectly(bare, user.token, 'c');
      await client(bare, user.token).put(`/pm/properties/${property.id}/pms`, { connection_id: 'c', pms_property_id: 'p' }).expect(200);
      const cfg = await request(bare.app)
        .post('/api/v1/billing/config')
        .set('Authorization', `Bearer ${user.token}`)
        .send({ property_id: property.id, method: 'unit_count', utility_types: ['water'] })
        .expect(201);
      const res = await request(bare.app)
        .post('/api/v1/billing/calculate-from-pms')
        .set('Authorization', `Bearer ${user.token}`)
        .send({
          property_id: property.id,
          billing_config_id: cfg.body.id,
          billing_period_start: '2026-03-01',
          billing_period_end: '2026-03-31',
          total_amount: 10,
          utility_type: 'water',
        })
        .expect(400);
      expect(res.body).toEqual(errorBody({ detail: 'No PMS integration configured for this property' }));
    } finally {
      await bare.stop();
    }
  });
});

describe('POST /billing/calculate-from-pms, a provider that does not answer', () => {
  let t: TestApp;
  let token: string;
  const fake = new FakePmsProvider();

  beforeAll(async () => {
    const url = await fake.start();
    // A page never answered times out whatever the machine's load; the time-out is long enough that the link's
    // own calls to the provider, answered, never do on a busy machine, and short enough that three tries end soon.
    t = await createTestApp({ jobs: true, env: { PMS_API_URL: url, PMS_API_KEY: 'k', PMS_API_TIMEOUT_MS: '1500' } });
    token = (await registerUser(t)).token;
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });

  it('502 and nothing stored on a time-out', async () => {
    const { propertyId, body } = await billedOn(t, token, fake, 'conn-slow', 'P-slow', [fakeUnit(1, 'P-slow')]);
    fake.behaviour = () => true; // holds every request without an answer
    const res = await calculateFromPms(t, token, body).expect(502);
    expect(res.body).toEqual(errorBody({ detail: 'Failed to fetch tenant data from PMS' }));
    expect(await historyTotalOf(t, token, propertyId)).toBe(0);
  });
});
