import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { FakePmsProvider, fakeUnit } from '../helpers/fake-pms';
import { createProperty } from '../pm/helpers';
import { client } from '../webhooks/helpers';
import { linkPms } from '../helpers/pms-link';
import { errorBody } from '../helpers/error-body';

describe('PMS link and units', () => {
  let t: TestApp;
  const fake = new FakePmsProvider();
  beforeAll(async () => {
    const url = await fake.start();
    t = await createTestApp({ jobs: true, env: { PMS_API_URL: url, PMS_API_KEY: 'provider-key' } });
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });
  beforeEach(() => {
    fake.behaviour = undefined;
    fake.pageSize = 50;
  });

  const unitsOf = async (token: string, propertyId: string, query = '') =>
    (await client(t, token).get(`/pm/properties/${propertyId}/units${query}`).expect(200)).body;

  it('links a property, imports its units from every page, and lists them', async () => {
    const alice = await registerUser(t);
    const property = await createProperty(t, alice.token);
    fake.pageSize = 2;
    fake.setUnits(
      'conn-a',
      'pms-1',
      [0, 1, 2, 3, 4].map((i) => fakeUnit(i, 'pms-1')),
    );
    const res = await linkPms(t, alice.token, property.id, { connection_id: 'conn-a', pms_property_id: 'pms-1' }, fake);
    expect(res.body).toEqual({
      property_id: property.id,
      connection_id: 'conn-a',
      pms_property_id: 'pms-1',
      linked_at: expect.any(String),
      last_synced_at: null,
      last_sync_error: null,
    });
    await eventually(async () => {
      const link = await client(t, alice.token).get(`/pm/properties/${property.id}/pms`).expect(200);
      expect(link.body.last_synced_at).not.toBeNull();
    });
    const page = await unitsOf(alice.token, property.id, '?per_page=2&page=1');
    expect(page).toMatchObject({ total: 5, page: 1, per_page: 2, pages: 3 });
    expect(page.items[0]).toEqual({
      id: expect.any(String),
      pms_unit_id: 'u0',
      unit_number: '100',
      sqft: 600,
      bedrooms: 1,
      bathrooms: 1,
      status: 'vacant',
      resident_name: null,
      occupant_count: null,
      lease_start: null,
      lease_end: null,
      updated_at: expect.any(String),
    });
    expect(page.items[1]).toMatchObject({
      pms_unit_id: 'u1',
      status: 'occupied',
      resident_name: 'Resident 1',
      occupant_count: 2,
      lease_start: '2025-01-01',
      lease_end: '2025-12-31',
    });
    expect(fake.requests.filter((r) => r.query.property_id === 'pms-1').every((r) => r.authorization === 'Bearer provider-key')).toBe(true);
  });

  it('a connection belongs to the account that authorised it at the provider; the same account may link several properties', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const a1 = await createProperty(t, alice.token);
    const a2 = await createProperty(t, alice.token);
    const b1 = await createProperty(t, bob.token);
    await linkPms(t, alice.token, a1.id, { connection_id: 'conn-owned', pms_property_id: 'x1' }, fake);
    // Bound to Alice now: her other properties link to it without another session.
    await client(t, alice.token).put(`/pm/properties/${a2.id}/pms`, { connection_id: 'conn-owned', pms_property_id: 'x2' }).expect(200);
    const taken = await client(t, bob.token)
      .put(`/pm/properties/${b1.id}/pms`, { connection_id: 'conn-owned', pms_property_id: 'x3' })
      .expect(409);
    expect(taken.body).toEqual(errorBody({ detail: 'This PMS connection belongs to another account' }));
    const twice = await client(t, alice.token)
      .put(`/pm/properties/${a2.id}/pms`, { connection_id: 'conn-owned', pms_property_id: 'x1' })
      .expect(409);
    expect(twice.body).toEqual(errorBody({ detail: 'This PMS property is already linked to another property' }));
    // Linking again to the same PMS property is fine (and imports again).
    await client(t, alice.token).put(`/pm/properties/${a1.id}/pms`, { connection_id: 'conn-owned', pms_property_id: 'x1' }).expect(200);
  });

  it('relinking to another PMS property replaces the units; unlinking removes them', async () => {
    const alice = await registerUser(t);
    const property = await createProperty(t, alice.token);
    fake.setUnits('conn-r', 'old', [fakeUnit(1, 'old'), fakeUnit(2, 'old')]);
    fake.setUnits('conn-r', 'new', [fakeUnit(7, 'new')]);
    const api = client(t, alice.token);
    await linkPms(t, alice.token, property.id, { connection_id: 'conn-r', pms_property_id: 'old' }, fake);
    await eventually(async () => expect((await unitsOf(alice.token, property.id)).total).toBe(2));
    await api.put(`/pm/properties/${property.id}/pms`, { connection_id: 'conn-r', pms_property_id: 'new' }).expect(200);
    await eventually(async () => {
      const units = await unitsOf(alice.token, property.id);
      expect(units.items.map((u: { pms_unit_id: string }) => u.pms_unit_id)).toEqual(['u7']);
    });
    await api.delete(`/pm/properties/${property.id}/pms`).expect(204);
    expect((await unitsOf(alice.token, property.id)).total).toBe(0);
    await api.get(`/pm/properties/${property.id}/pms`).expect(404);
    await api.delete(`/pm/properties/${property.id}/pms`).expect(204);
  });

  it('a provider failure stores the reason and no unit at all', async () => {
    const alice = await registerUser(t);
    const property = await createProperty(t, alice.token);
    fake.pageSize = 1;
    fake.setUnits('conn-f', 'p', [fakeUnit(1, 'p'), fakeUnit(2, 'p'), fakeUnit(3, 'p')]);
    fake.behaviour = (r, res) => {
      if (r.query.property_id !== 'p' || r.query.page !== '3') return false;
      res.end('{"data": [oops');
      return true;
    };
    await linkPms(t, alice.token, property.id, { connection_id: 'conn-f', pms_property_id: 'p' }, fake);
    await eventually(async () => {
      const link = await client(t, alice.token).get(`/pm/properties/${property.id}/pms`).expect(200);
      expect(link.body.last_sync_error).toBe('Failed to fetch units from the PMS: the answer is not JSON');
    });
    expect(await unitsOf(alice.token, property.id)).toMatchObject({ total: 0, items: [] });
  });

  it("validates the body and hides other accounts' properties", async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const property = await createProperty(t, alice.token);
    const missing = await client(t, alice.token).put(`/pm/properties/${property.id}/pms`, { connection_id: 'c' }).expect(422);
    expect(missing.body).toEqual(
      errorBody({ detail: 'field required', errors: [{ field: 'pms_property_id', message: 'field required' }] }),
    );
    await client(t, alice.token).put(`/pm/properties/${property.id}/pms`, { connection_id: '', pms_property_id: 'p' }).expect(422);
    await client(t, bob.token).put(`/pm/properties/${property.id}/pms`, { connection_id: 'c', pms_property_id: 'p' }).expect(404);
    await client(t, bob.token).get(`/pm/properties/${property.id}/units`).expect(404);
    await client(t, bob.token).delete(`/pm/properties/${property.id}/pms`).expect(404);
    await client(t, alice.token).get(`/pm/properties/${property.id}/units?per_page=101`).expect(422);
  });
});
