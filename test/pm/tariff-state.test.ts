/**
 * Issue 45 item 7: a tariff of another state on a property (a Georgia Power tariff on a Denver
 * property) is a 422 naming both; so is a meter's tariff, and a move of the property to another state
 * that its tariffs no longer fit. Properties README "A tariff of the property's state".
 */
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createMeter, createProperty } from './helpers';
import { properties } from '../../src/modules/properties/tables';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';
import { errorBody } from '../helpers/error-body';

/** Real bundled tariffs, current: Georgia Power's TOU-MB-7 and Public Service Co of Colorado's (Xcel) SG. */
const GEORGIA_POWER_TOU_MB_7 = '5ae3acd05457a3a8689b4e70';
const XCEL_COLORADO_SG = '571969925457a3fe15fc9aff';
const DENVER = {
  name: 'Larimer Square Offices',
  address: '1430 Larimer St',
  city: 'Denver',
  state: 'CO',
  zip_code: '80202',
  property_type: 'commercial',
};
const ATLANTA = { city: 'Atlanta', state: 'GA', zip_code: '30303' };
const GEORGIA_ON_DENVER = `tariff_id ${GEORGIA_POWER_TOU_MB_7} is a GA tariff (Georgia Power Co); the property is in CO`;

describe("a tariff of the property's state (issue 45 item 7)", () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    await seedTariffs(t.deps.database, [GEORGIA_POWER_TOU_MB_7, XCEL_COLORADO_SG]);
  });
  afterAll(() => t.stop());

  it('the catalog says where the two tariffs are', async () => {
    expect((await as(t, alice).get(`/tariffs/${GEORGIA_POWER_TOU_MB_7}`).expect(200)).body).toMatchObject({
      state: 'GA',
      utility_name: 'Georgia Power Co',
    });
    expect((await as(t, alice).get(`/tariffs/${XCEL_COLORADO_SG}`).expect(200)).body).toMatchObject({
      state: 'CO',
      utility_name: 'Public Service Co of Colorado',
    });
  });

  it('refuses a Georgia Power tariff on a Denver property, on create and on PATCH, naming both states', async () => {
    const created = await as(t, alice)
      .post('/pm/properties', { ...DENVER, tariff_id: GEORGIA_POWER_TOU_MB_7, monthly_usage_kwh: 20000 })
      .expect(422);
    expect(created.body).toEqual(errorBody({ detail: GEORGIA_ON_DENVER, errors: [{ field: 'tariff_id', message: GEORGIA_ON_DENVER }] }));

    const p = await createProperty(t, alice, { ...DENVER, tariff_id: XCEL_COLORADO_SG, monthly_usage_kwh: 20000 });
    const patched = await as(t, alice).patch(`/pm/properties/${p.id}`, { tariff_id: GEORGIA_POWER_TOU_MB_7 }).expect(422);
    expect(patched.body).toEqual(errorBody({ detail: GEORGIA_ON_DENVER, errors: [{ field: 'tariff_id', message: GEORGIA_ON_DENVER }] }));
    // Nothing changed: the Colorado tariff still prices it.
    expect((await as(t, alice).get(`/pm/properties/${p.id}`).expect(200)).body.tariff_id).toBe(XCEL_COLORADO_SG);
  });

  it("refuses a move to another state that the property's tariff does not fit; a move with a tariff of the new state is fine", async () => {
    const p = await createProperty(t, alice, { ...DENVER, tariff_id: XCEL_COLORADO_SG });
    const moved = await as(t, alice).patch(`/pm/properties/${p.id}`, ATLANTA).expect(422);
    const message =
      `state GA does not fit the property's tariff_id: tariff_id ${XCEL_COLORADO_SG} is a CO tariff (Public Service Co of Colorado); ` +
      'the property is in GA; give a GA tariff_id (or null) in the same PATCH';
    expect(moved.body).toEqual(errorBody({ detail: message, errors: [{ field: 'state', message }] }));
    const both = await as(t, alice)
      .patch(`/pm/properties/${p.id}`, { ...ATLANTA, tariff_id: GEORGIA_POWER_TOU_MB_7 })
      .expect(200);
    expect(both.body).toMatchObject({ state: 'GA', zip_code: '30303', tariff_id: GEORGIA_POWER_TOU_MB_7 });
  });

  it("a meter's tariff is of its property's state too, and a move its meters' tariffs do not fit is refused naming the meter", async () => {
    const p = await createProperty(t, alice, DENVER);
    const meters = `/pm/properties/${p.id}/meters`;
    const refused = await as(t, alice).post(meters, { utility_type: 'electric', tariff_id: GEORGIA_POWER_TOU_MB_7 }).expect(422);
    const message = `tariff_id ${GEORGIA_POWER_TOU_MB_7} is a GA tariff (Georgia Power Co); the meter's property is in CO`;
    expect(refused.body).toEqual(errorBody({ detail: message, errors: [{ field: 'tariff_id', message }] }));

    const meter = (
      await as(t, alice).post(meters, { utility_type: 'electric', name: 'House meter', tariff_id: XCEL_COLORADO_SG }).expect(201)
    ).body;
    expect((await as(t, alice).patch(`/pm/meters/${meter.id}`, { tariff_id: GEORGIA_POWER_TOU_MB_7 }).expect(422)).body.errors).toEqual([
      { field: 'tariff_id', message },
    ]);

    const moved = await as(t, alice).patch(`/pm/properties/${p.id}`, ATLANTA).expect(422);
    expect(moved.body.errors).toEqual([
      {
        field: 'state',
        message:
          `state GA does not fit meter 'House meter' (${meter.id}): tariff_id ${XCEL_COLORADO_SG} is a CO tariff (Public Service Co of Colorado); ` +
          `the property is in GA; clear or change the meter's tariff_id first (PATCH /pm/meters/${meter.id})`,
      },
    ]);
    await as(t, alice).patch(`/pm/meters/${meter.id}`, { tariff_id: null }).expect(200);
    await as(t, alice).patch(`/pm/properties/${p.id}`, ATLANTA).expect(200);
    await as(t, alice).patch(`/pm/meters/${meter.id}`, { tariff_id: GEORGIA_POWER_TOU_MB_7 }).expect(200);
  });

  it("own tariffs: one of another state is refused (a Texas water rate on a Denver water meter), one without a state is the owner's word", async () => {
    const p = await createProperty(t, alice, DENVER);
    const texasWater = (await as(t, alice).post('/tariffs/custom', createWaterTariff).expect(201)).body;
    const refused = await as(t, alice)
      .post(`/pm/properties/${p.id}/meters`, { utility_type: 'water', tariff_id: texasWater.id })
      .expect(422);
    expect(refused.body.detail).toBe(
      `tariff_id ${texasWater.id} is a TX tariff (Harlingen Waterworks System); the meter's property is in CO`,
    );

    // Denver Water's rate, typed without a state: nothing to check it against, accepted.
    const { state: _state, ...stateless } = createWaterTariff;
    const denverWater = (
      await as(t, alice)
        .post('/tariffs/custom', { ...stateless, utility_name: 'Denver Water' })
        .expect(201)
    ).body;
    expect(denverWater.state).toBeNull();
    await createMeter(t, alice, p.id, { utility_type: 'water', tariff_id: denverWater.id });

    // A supply contract of another state is refused on supply_tariff_id alike.
    const supply = (
      await as(t, alice)
        .post('/tariffs/custom', {
          name: 'Fixed-price supply',
          utility_name: 'Gexa Energy',
          state: 'TX',
          sector: 'commercial',
          service_type: 'supply_only',
          energy_rates: [{ period: 'all_year', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], rate_per_kwh: 0.07 }],
        })
        .expect(201)
    ).body;
    const onSupply = await as(t, alice).patch(`/pm/properties/${p.id}`, { supply_tariff_id: supply.id }).expect(422);
    expect(onSupply.body.errors).toEqual([
      { field: 'supply_tariff_id', message: `supply_tariff_id ${supply.id} is a TX tariff (Gexa Energy); the property is in CO` },
    ]);
  });

  it('a tariff stored before the rule does not block a PATCH of other fields (nor a body repeating it); a new tariff is checked', async () => {
    const p = await createProperty(t, alice, DENVER);
    await t.deps.database.db.update(properties).set({ tariffId: GEORGIA_POWER_TOU_MB_7 }).where(eq(properties.id, p.id));
    await as(t, alice).patch(`/pm/properties/${p.id}`, { name: 'Larimer Square' }).expect(200);
    await as(t, alice)
      .patch(`/pm/properties/${p.id}`, { name: 'Larimer Square', tariff_id: GEORGIA_POWER_TOU_MB_7, monthly_usage_kwh: 1000 })
      .expect(200);
    await as(t, alice).patch(`/pm/properties/${p.id}`, { tariff_id: XCEL_COLORADO_SG }).expect(200);
    await as(t, alice).patch(`/pm/properties/${p.id}`, { tariff_id: GEORGIA_POWER_TOU_MB_7 }).expect(422);
  });
});
