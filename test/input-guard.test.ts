import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { registerUser, type RegisteredTestUser } from './helpers/users';
import { errorBody } from './helpers/error-body';

/**
 * Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) is refused by the router for every
 * route before any query runs: 422 naming the field for the body and the query, 404 for a path id.
 * Before the guard, each of these was a 500 from the database.
 */
describe('input PostgreSQL cannot store', () => {
  let t: TestApp;
  let owner: RegisteredTestUser;
  let propertyId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerUser(t);
    const portfolio = await request(t.app)
      .post('/api/v1/pm/portfolios')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ name: 'Guarded' });
    const property = await request(t.app).post('/api/v1/pm/properties').set('Authorization', `Bearer ${owner.token}`).send({
      portfolio_id: portfolio.body.id,
      name: 'One',
      address: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip_code: '78701',
      property_type: 'commercial',
      sqft: 10000,
    });
    expect(property.status).toBe(201);
    propertyId = property.body.id;
  });
  afterAll(() => t.stop());

  const auth = () => ({ Authorization: `Bearer ${owner.token}` });

  it('a NUL in a JSON field of a public endpoint: 422 naming the field, not 500', async () => {
    const res = await request(t.app).post('/api/v1/calculate').send({ tariff_id: 'a\u0000b', usage_kwh: 100, month: 1 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorBody({
        detail: 'must not contain NUL characters',
        errors: [{ field: 'tariff_id', message: 'must not contain NUL characters' }],
      }),
    );
  });

  it("a NUL in a path id: the route's own 404", async () => {
    const tariff = await request(t.app).get('/api/v1/tariffs/a%00b');
    expect(tariff.status).toBe(404);
    expect(tariff.body).toEqual(errorBody({ detail: 'Tariff not found' }));
    const property = await request(t.app).get('/api/v1/pm/properties/a%00b').set(auth());
    expect(property.status).toBe(404);
    expect(property.body).toEqual(errorBody({ detail: 'Property not found' }));
  });

  it('a path segment that is not percent-encoded UTF-8 (a lone surrogate, a cut escape): 404, not 500', async () => {
    for (const id of ['%ED%A0%80', '%E0%A4%A']) {
      const res = await request(t.app).get(`/api/v1/tariffs/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody({ detail: 'Not Found' }));
    }
  });

  it('a NUL in a query string: 422 naming the parameter', async () => {
    const res = await request(t.app).get('/api/v1/tariffs/search?q=x%00y');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'q', message: 'must not contain NUL characters' }]);
  });

  it('a lone surrogate (JSON escape \\ud800) in a nested field: 422 with the path to it', async () => {
    const res = await request(t.app)
      .post('/api/v1/billing/calculate-rubs')
      .set(auth())
      .set('content-type', 'application/json')
      .send(
        `{"property_id":"${propertyId}","billing_config_id":"x","utility_type":"water","total_amount":100,` +
          '"period_start":"2026-01-01","period_end":"2026-01-31","units":[{"unit_id":"1","tenant_name":"A\\ud800"}]}',
      );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'units.0.tenant_name', message: 'must be well-formed Unicode (no lone surrogates)' }]);
  });

  it('a NUL in a key, and in a form field (the OAuth2 login)', async () => {
    const key = await request(t.app)
      .patch(`/api/v1/pm/properties/${propertyId}`)
      .set(auth())
      .set('content-type', 'application/json')
      .send('{"name":"ok","odd\\u0000key":1}');
    expect(key.status).toBe(422);
    expect(key.body.errors).toEqual([{ field: '', message: 'keys must not contain NUL characters' }]);
    const login = await request(t.app).post('/api/v1/auth/login').type('form').send('username=a%00b%40example.com&password=x');
    expect(login.status).toBe(422);
    expect(login.body.errors[0].field).toBe('username');
  });

  it('authentication still comes first: no token, a NUL in the body, is 401', async () => {
    const res = await request(t.app).post('/api/v1/pm/portfolios').send({ name: 'a\u0000' });
    expect(res.status).toBe(401);
  });

  it('well-formed text passes: a surrogate pair (an emoji) and other scripts are stored as sent', async () => {
    const res = await request(t.app).post('/api/v1/pm/portfolios').set(auth()).send({ name: 'Häuser 🏢 東京' });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Häuser 🏢 東京');
  });
});
