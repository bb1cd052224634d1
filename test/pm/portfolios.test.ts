import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createPortfolio, createProperty, GLADSTONE } from './helpers';
import { errorBody } from '../helpers/error-body';

describe('portfolios', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp();
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.SP1]);
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  it('needs authentication', async () => {
    expect((await request(t.app).get('/api/v1/pm/portfolios').expect(401)).body.detail).toBe('Not authenticated');
    await request(t.app).post('/api/v1/pm/portfolios').send({ name: 'x' }).expect(401);
  });

  it('creates a portfolio: 201 with id, name, description, owner_id, created_at', async () => {
    const me = await as(t, alice).get('/auth/me').expect(200);
    const res = await as(t, alice).post('/pm/portfolios', { name: 'Lakeside', description: 'Upper peninsula' }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Lakeside',
      description: 'Upper peninsula',
      owner_id: me.body.id,
      created_at: expect.any(String),
    });
    const bare = await as(t, alice).post('/pm/portfolios', { name: 'Bare' }).expect(201);
    expect(bare.body.description).toBeNull();
  });

  it('422 field required without a name', async () => {
    const res = await as(t, alice).post('/pm/portfolios', { description: 'no name' }).expect(422);
    expect(res.body).toEqual(errorBody({ detail: 'field required', errors: [{ field: 'name', message: 'field required' }] }));
  });

  it("lists only the caller's portfolios with property_count, paginated", async () => {
    const carol = (await registerUser(t)).token;
    const p1 = await createPortfolio(t, carol, 'One');
    await createPortfolio(t, carol, 'Two');
    await createProperty(t, carol, { portfolio_id: p1.id });
    await createProperty(t, carol, { portfolio_id: p1.id });
    await createProperty(t, carol);
    await createPortfolio(t, bob, "Bob's");
    const res = await as(t, carol).get('/pm/portfolios').expect(200);
    expect(res.body).toMatchObject({ total: 2, page: 1, per_page: 20, pages: 1 });
    expect(res.body.items).toEqual([
      { id: expect.any(String), name: 'Two', description: null, property_count: 0, created_at: expect.any(String) },
      { id: p1.id, name: 'One', description: null, property_count: 2, created_at: expect.any(String) },
    ]);
    const page2 = await as(t, carol).get('/pm/portfolios?per_page=1&page=2').expect(200);
    expect(page2.body).toMatchObject({ total: 2, per_page: 1, pages: 2, items: [{ name: 'One' }] });
  });

  it('detail sums the one annual cost: without bills, the tariff estimates; properties without one count in property_count and sqft only', async () => {
    const p = await createPortfolio(t, alice, 'Summary');
    // C1: 10,000 kWh x $0.1217 + $13.54 = $1,230.54 / month
    await createProperty(t, alice, { portfolio_id: p.id, sqft: 10000, tariff_id: GLADSTONE.C1, monthly_usage_kwh: 10000 });
    // Issue 45 replaced SP1 at 2,500 kWh (SP1 is open from 15,000 kWh a month; the fixture is now the in-city SP1 at $0.1016):
    // SP1: 25,000 kWh x $0.1016 + $18.54 = $2,540.00 + $18.54 = $2,558.54 / month
    await createProperty(t, alice, { portfolio_id: p.id, sqft: 2500, tariff_id: GLADSTONE.SP1, monthly_usage_kwh: 25000 });
    await createProperty(t, alice, { portfolio_id: p.id, sqft: 700, tariff_id: GLADSTONE.SP1 }); // no usage
    await createProperty(t, alice, { portfolio_id: p.id, monthly_usage_kwh: 9999 }); // no tariff, no sqft
    const res = await as(t, alice).get(`/pm/portfolios/${p.id}`).expect(200);
    expect(res.body).toMatchObject({ id: p.id, name: 'Summary', description: null, owner_id: expect.any(String) });
    // monthly 1,230.54 + 2,558.54 = 3,789.08; annual x 12 = 45,468.96; kWh a year (10,000 + 25,000) x 12 = 420,000
    // -> 45,468.96 / 420,000 = $0.1083/kWh (0.108259...)
    expect(res.body.summary).toEqual({
      property_count: 4,
      total_monthly_cost: 3789.08,
      total_annual_cost: 45468.96,
      avg_cost_per_kwh: 0.1083,
      total_sqft: 13200,
    });
  });

  it('an empty portfolio has a zero summary', async () => {
    const p = await createPortfolio(t, alice, 'Empty');
    const res = await as(t, alice).get(`/pm/portfolios/${p.id}`).expect(200);
    expect(res.body.summary).toEqual({
      property_count: 0,
      total_monthly_cost: 0,
      total_annual_cost: 0,
      avg_cost_per_kwh: 0,
      total_sqft: 0,
    });
  });

  it("404 Portfolio not found for an unknown id or another owner's portfolio", async () => {
    const p = await createPortfolio(t, alice, 'Private');
    expect((await as(t, bob).get(`/pm/portfolios/${p.id}`).expect(404)).body.detail).toBe('Portfolio not found');
    expect((await as(t, alice).get('/pm/portfolios/nope').expect(404)).body.detail).toBe('Portfolio not found');
    expect((await as(t, bob).get('/pm/portfolios').expect(200)).body.items.map((x: { name: string }) => x.name)).not.toContain('Private');
  });

  it('documents every property-management endpoint in /openapi.json', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body;
    for (const [path, method] of [
      ['/api/v1/pm/portfolios', 'post'],
      ['/api/v1/pm/portfolios', 'get'],
      ['/api/v1/pm/portfolios/{id}', 'get'],
      ['/api/v1/pm/properties', 'post'],
      ['/api/v1/pm/properties', 'get'],
      ['/api/v1/pm/properties/{id}', 'get'],
      ['/api/v1/pm/properties/{id}', 'patch'],
      ['/api/v1/pm/properties/{id}/analyze-rates', 'post'],
      ['/api/v1/pm/properties/{id}/bills', 'post'],
      ['/api/v1/pm/properties/{id}/bills', 'get'],
      ['/api/v1/pm/properties/{id}/bills/import', 'post'],
      ['/api/v1/pm/notifications', 'get'],
      ['/api/v1/pm/notifications/{id}/read', 'post'],
    ]) {
      expect(doc.paths[path]?.[method]).toBeDefined();
    }
    const importOp = doc.paths['/api/v1/pm/properties/{id}/bills/import'].post;
    expect(importOp.description).toContain('duplicates');
    expect(Object.keys(importOp.requestBody.content)).toEqual(['multipart/form-data']);
    expect(importOp.responses['413']).toBeDefined();
  });
});
