import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as } from '../pm/helpers';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';
import { errorAnswer } from '../helpers/error-body';

const allYear = { period: 'all_year', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] };

/**
 * Harlingen Waterworks System (TX), "Current rate schedule 2024" (hwws.com, water and wastewater rate
 * schedule; ordinance approved 2024-04-17, rates on bills from May 2024), inside city, 5/8" meter.
 * Sewer: flat fee $7.73 plus $4.06 per 1,000 gallons of metered water.
 */
const HARLINGEN_SEWER = {
  name: 'Residential sewer, inside city (5/8" meter)',
  utility_name: 'Harlingen Waterworks System',
  state: 'TX',
  sector: 'residential',
  utility_type: 'sewer',
  unit: 'kgal',
  effective_date: '2024-05-01',
  energy_rates: [{ ...allYear, rate_per_unit: 4.06 }],
  fixed_charges: [{ name: 'Sewer flat fee (5/8" meter)', amount: 7.73, frequency: 'monthly' }],
};

/**
 * City of Sioux Center (IA) natural gas, residential and small commercial (siouxcenter.org/128/Rates, the "Rates" page
 * with its gas cost adjustment table of March 2020 to February 2021; the page states no effective date for the base rates):
 * $7.00 a month; first 5,000 cubic feet $0.00838/cf, above $0.00810/cf; gas cost adjustment per cf by
 * month (January 2021 -$0.00264, July 2020 -$0.00388). Priced per ccf: x 100.
 */
const SIOUX_CENTER_GAS = {
  name: 'Natural gas, residential and small commercial',
  utility_name: 'City of Sioux Center',
  state: 'IA',
  sector: 'residential',
  utility_type: 'gas',
  unit: 'ccf',
  effective_date: '2020-03-01',
  energy_rates: [
    { ...allYear, tier: 1, tier_max: 50, rate_per_unit: 0.838 },
    { ...allYear, tier: 2, tier_max: null, rate_per_unit: 0.81 },
  ],
  fixed_charges: [{ name: 'Monthly service charge', amount: 7, frequency: 'monthly' }],
  riders: [
    { name: 'Gas cost adjustment (January 2021)', rate_per_unit: -0.264, months: [1] },
    { name: 'Gas cost adjustment (July 2020)', rate_per_unit: -0.388, months: [7] },
  ],
};

/** A create body for a commercial property in Houston, TX (ZIP 77002); `fields` names it and adds the rest. */
const houston = (fields: Record<string, unknown>) => ({
  address: '1 Main St',
  city: 'Houston',
  state: 'TX',
  zip_code: '77002',
  property_type: 'commercial',
  ...fields,
});

describe('custom tariffs (issue 31)', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp();
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const create = (token: string, body: unknown) => as(t, token).post('/tariffs/custom', body);
  const calc = (token: string | null, body: unknown) => {
    const r = request(t.app).post('/api/v1/calculate');
    return (token ? r.set('Authorization', `Bearer ${token}`) : r).send(body as object);
  };

  it('prices a month of Harlingen water and sewer by hand, in kgal, from gallons', async () => {
    const water = (await create(alice, createWaterTariff).expect(201)).body;
    expect(water).toMatchObject({ utility_type: 'water', unit: 'kgal', rate_type: 'tiered', custom: true, utility_id: null });
    expect(water.id).toMatch(/^ct_[0-9a-f]{32}$/);
    const sewer = (await create(alice, HARLINGEN_SEWER).expect(201)).body;

    const bill = (await calc(alice, { tariff_id: water.id, usage: 12, unit: 'kgal', date: '2025-01-15' }).expect(200)).body;
    // 3 x 1.30 = 3.90; 7 x 1.80 = 12.60; 2 x 2.55 = 5.10; flat fee 9.91: 31.51
    expect(bill.line_items).toEqual([
      { category: 'energy', name: 'Usage all_year tier 1: 3 kgal x $1.3/kgal', amount: 3.9 },
      { category: 'energy', name: 'Usage all_year tier 2: 7 kgal x $1.8/kgal', amount: 12.6 },
      { category: 'energy', name: 'Usage all_year tier 3: 2 kgal x $2.55/kgal', amount: 5.1 },
      { category: 'fixed', name: 'Water flat fee (5/8" meter): $9.91/month', amount: 9.91 },
    ]);
    expect(bill).toMatchObject({ total_cost: 31.51, month: 1, utility_type: 'water', usage: 12, unit: 'kgal' });
    expect(bill.summary).toMatchObject({ effective_rate_per_kwh: null, effective_rate_per_unit: 2.6258 });

    // 9,000 gallons = 9 kgal: 3.90 + 10.80 + 9.91 = 24.61; sewer 9 x 4.06 = 36.54 + 7.73 = 44.27
    const fromGallons = (await calc(alice, { tariff_id: water.id, usage: 9000, unit: 'gallons', month: 5 }).expect(200)).body;
    expect(fromGallons.total_cost).toBe(24.61);
    expect(fromGallons.assumptions[0]).toBe('usage 9000 gallons converted to 9 kgal (1 gallons = 0.001 kgal), to 0.001 kgal');
    expect((await calc(alice, { tariff_id: sewer.id, usage: 9, unit: 'kgal', month: 5 }).expect(200)).body.total_cost).toBe(44.27);
    // 12 kgal of sewer: 48.72 + 7.73 = 56.45
    expect((await calc(alice, { tariff_id: sewer.id, usage: 12, month: 5 }).expect(200)).body.total_cost).toBe(56.45);
  });

  it("prices Sioux Center gas by hand: blocks and the month's gas cost adjustment; ccf to therms only with a heat content", async () => {
    const gas = (await create(alice, SIOUX_CENTER_GAS).expect(201)).body;
    const january = (await calc(alice, { tariff_id: gas.id, usage: 120, unit: 'ccf', month: 1 }).expect(200)).body;
    // 50 x 0.838 = 41.90; 70 x 0.81 = 56.70; 7.00; GCA 120 x -0.264 = -31.68: 73.92
    expect(january.total_cost).toBe(73.92);
    expect(january.line_items).toContainEqual({
      category: 'rider',
      name: 'Gas cost adjustment (January 2021): 120 ccf x $-0.264/ccf',
      amount: -31.68,
    });
    // July: 18 x 0.838 = 15.084 -> 15.08; 7.00; 18 x -0.388 = -6.984 -> -6.98: 15.10
    expect((await calc(alice, { tariff_id: gas.id, usage: 18, unit: 'ccf', month: 7 }).expect(200)).body.total_cost).toBe(15.1);
    // Usage in therms needs the heat content to become ccf.
    const noHeat = await calc(alice, { tariff_id: gas.id, usage: 103.7, unit: 'therms', month: 1 }).expect(422);
    expect(noHeat.body.errors[0].field).toBe('heat_content');
    const withHeat = (await calc(alice, { tariff_id: gas.id, usage: 124.44, unit: 'therms', heat_content: 1.037, month: 1 }).expect(200))
      .body;
    expect(withHeat.usage).toBe(120);
    expect(withHeat.total_cost).toBe(73.92);
  });

  it('is its owner\'s only: another account and anonymous callers get 404 "Tariff not found"', async () => {
    const water = (await create(alice, createWaterTariff).expect(201)).body;
    await as(t, bob)
      .get(`/tariffs/${water.id}`)
      .expect(404)
      .expect(errorAnswer({ detail: 'Tariff not found' }));
    await request(t.app)
      .get(`/api/v1/tariffs/${water.id}`)
      .expect(404)
      .expect(errorAnswer({ detail: 'Tariff not found' }));
    await calc(bob, { tariff_id: water.id, usage: 1, unit: 'kgal' })
      .expect(404)
      .expect(errorAnswer({ detail: 'Tariff not found' }));
    await calc(null, { tariff_id: water.id, usage: 1, unit: 'kgal' }).expect(404);
    await as(t, bob).patch(`/tariffs/${water.id}`, { name: 'mine now' }).expect(404);
    const own = (await as(t, alice).get(`/tariffs/${water.id}`).expect(200)).body;
    expect(own.versions).toHaveLength(1);
    expect((await as(t, bob).get('/tariffs/custom').expect(200)).body.total).toBe(0);
  });

  it('versions by date: the version in force on the date prices the bill; the detail shows every version', async () => {
    const water = (await create(alice, createWaterTariff).expect(201)).body;
    const v2 = {
      effective_date: '2025-10-01',
      energy_rates: [
        { ...allYear, tier: 1, tier_max: 3, rate_per_unit: 1.5 },
        { ...allYear, tier: 2, tier_max: null, rate_per_unit: 2 },
      ],
      fixed_charges: [{ name: 'Water flat fee (5/8" meter)', amount: 10.5, frequency: 'monthly' }],
    };
    const detail = (await as(t, alice).post(`/tariffs/custom/${water.id}/versions`, v2).expect(201)).body;
    expect(
      detail.versions.map((v: { effective_date: string; expiration_date: string | null }) => [v.effective_date, v.expiration_date]),
    ).toEqual([
      ['2024-05-01', '2025-09-30'],
      ['2025-10-01', null],
    ]);
    await as(t, alice)
      .post(`/tariffs/custom/${water.id}/versions`, v2)
      .expect(409)
      .expect(errorAnswer({ detail: 'Tariff already has a version effective 2025-10-01' }));

    const before = (await calc(alice, { tariff_id: water.id, usage: 5, unit: 'kgal', date: '2025-09-30' }).expect(200)).body;
    // 3 x 1.30 + 2 x 1.80 + 9.91 = 17.41
    expect(before.total_cost).toBe(17.41);
    const after = (await calc(alice, { tariff_id: water.id, usage: 5, unit: 'kgal', date: '2025-10-01' }).expect(200)).body;
    // 3 x 1.50 + 2 x 2.00 + 10.50 = 19.00
    expect(after.total_cost).toBe(19);
    expect(after.month).toBe(10);
    const early = await calc(alice, { tariff_id: water.id, usage: 5, unit: 'kgal', date: '2020-01-01' }).expect(422);
    expect(early.body.detail).toBe(`tariff ${water.id} has no version in force on 2020-01-01: its first takes effect 2024-05-01`);

    // A billing period across the change is prorated by days on each version: Sep 16-30 (15 days) on the first,
    // Oct 1-15 (15 days) on the second. First: (3.90, 3.60, 9.91) x 15/30 = 1.95, 1.80, 4.955 -> 4.96 = 8.71;
    // second: (4.50, 4.00, 10.50) x 15/30 = 2.25, 2.00, 5.25 = 9.50. Total 18.21.
    const period = (
      await calc(alice, { tariff_id: water.id, usage: 5, unit: 'kgal', period_start: '2025-09-16', period_end: '2025-10-15' }).expect(200)
    ).body;
    expect(period.line_items.map((l: { name: string; amount: number }) => [l.name, l.amount])).toEqual([
      ['Usage all_year tier 1: 3 kgal x $1.3/kgal (15/30 days in September on the rates of 2024-05-01)', 1.95],
      ['Usage all_year tier 2: 2 kgal x $1.8/kgal (15/30 days in September on the rates of 2024-05-01)', 1.8],
      ['Water flat fee (5/8" meter): $9.91/month (15/30 days in September on the rates of 2024-05-01)', 4.96],
      ['Usage all_year tier 1: 3 kgal x $1.5/kgal (15/30 days in October on the rates of 2025-10-01)', 2.25],
      ['Usage all_year tier 2: 2 kgal x $2/kgal (15/30 days in October on the rates of 2025-10-01)', 2],
      ['Water flat fee (5/8" meter): $10.5/month (15/30 days in October on the rates of 2025-10-01)', 5.25],
    ]);
    expect(period).toMatchObject({ total_cost: 18.21, month: 10 });
    expect(period.assumptions).toContain(
      'billing period of 30 days prorated by days: 15 in September (rates of 2024-05-01), 15 in October (rates of 2025-10-01)',
    );
    const mixed = await calc(alice, {
      tariff_id: water.id,
      usage: 5,
      period_start: '2025-09-16',
      period_end: '2025-10-15',
      month: 9,
    }).expect(422);
    expect(mixed.body.errors[0]).toEqual({
      field: 'month',
      message: 'month cannot be combined with a billing period (period_start, period_end)',
    });
    await calc(alice, { tariff_id: water.id, usage: 5, period_start: '2025-01-01', period_end: '2025-06-30' }).expect(422);
  });

  it('a supply contract beside a delivery-only tariff: the property estimate and /calculate add the two line by line', async () => {
    const delivery = (
      await create(alice, {
        name: 'Delivery service',
        utility_name: 'Example Wires Co',
        state: 'TX',
        sector: 'commercial',
        service_type: 'delivery_only',
        energy_rates: [{ ...allYear, rate_per_kwh: 0.04 }],
        fixed_charges: [{ name: 'Customer charge', amount: 10, frequency: 'monthly' }],
      }).expect(201)
    ).body;
    const supply = (
      await create(alice, {
        name: 'Fixed-price supply contract',
        utility_name: 'Example Energy Retail',
        state: 'TX',
        sector: 'commercial',
        service_type: 'supply_only',
        energy_rates: [{ ...allYear, rate_per_kwh: 0.0725 }],
      }).expect(201)
    ).body;
    const bill = (
      await calc(alice, {
        tariff_id: delivery.id,
        usage_kwh: 1000,
        month: 3,
        supply_tariff_id: supply.id,
        supply_rate_per_kwh: 0.2,
      }).expect(200)
    ).body;
    // 1000 x 0.04 = 40.00 + 10.00; supply 1000 x 0.0725 = 72.50: 122.50
    expect(bill.line_items).toEqual([
      { category: 'energy', name: 'Energy all_year: 1000 kWh x $0.04/kWh', amount: 40 },
      { category: 'fixed', name: 'Customer charge: $10/month', amount: 10 },
      { category: 'energy', name: 'Supply: Energy all_year: 1000 kWh x $0.0725/kWh', amount: 72.5 },
    ]);
    expect(bill.total_cost).toBe(122.5);
    expect(bill.assumptions).toContain('supply_rate_per_kwh not applied: the supply tariff Fixed-price supply contract prices supply');
    await calc(alice, { tariff_id: delivery.id, usage_kwh: 1000, supply_tariff_id: delivery.id }).expect(422);

    const property = (
      await as(t, alice)
        .post('/pm/properties', houston({ name: 'Depot', tariff_id: delivery.id, supply_tariff_id: supply.id, monthly_usage_kwh: 1000 }))
        .expect(201)
    ).body;
    expect(property).toMatchObject({ tariff_id: delivery.id, supply_tariff_id: supply.id });
    const analysis = (await as(t, alice).post(`/pm/properties/${property.id}/analyze-rates`).expect(200)).body;
    expect(analysis.current_tariff).toEqual({ id: delivery.id, name: 'Delivery service', estimated_monthly_cost: 122.5 });
    const wrong = await as(t, alice)
      .post('/pm/properties', houston({ name: 'Depot', tariff_id: supply.id }))
      .expect(422);
    expect(wrong.body.errors[0]).toEqual({
      field: 'tariff_id',
      message: `tariff_id is the utility's tariff: ${supply.id} is supply only (give it as supply_tariff_id)`,
    });
    // In use: it cannot be retired.
    const retire = await request(t.app).delete(`/api/v1/tariffs/${supply.id}`).set('Authorization', `Bearer ${alice}`).expect(409);
    expect(retire.body.detail).toBe(`Tariff is in use by property 'Depot' (${property.id}): give them another tariff first`);
    await as(t, bob)
      .post('/pm/properties', houston({ name: 'Not mine', tariff_id: delivery.id }))
      .expect(422)
      .expect(errorAnswer({ detail: 'Tariff not found', errors: [{ field: 'tariff_id', message: 'Tariff not found' }] }));
  });

  it('renames and retires (then it is gone)', async () => {
    const water = (await create(alice, createWaterTariff).expect(201)).body;
    const renamed = (await as(t, alice).patch(`/tariffs/${water.id}`, { name: 'Harlingen water' }).expect(200)).body;
    expect(renamed.name).toBe('Harlingen water');
    await as(t, alice).patch(`/tariffs/${water.id}`, {}).expect(422);
    await request(t.app).delete(`/api/v1/tariffs/${water.id}`).set('Authorization', `Bearer ${alice}`).expect(204);
    await as(t, alice).get(`/tariffs/${water.id}`).expect(404);
  });

  it('refuses rates that cannot be priced with the JSON path and why', async () => {
    const bad = async (body: unknown) => (await create(alice, body).expect(422)).body.errors[0];
    expect(
      await bad({
        ...createWaterTariff,
        energy_rates: [
          { ...allYear, tier: 1, tier_max: 10, rate_per_unit: 1 },
          { ...allYear, tier: 2, tier_max: 5, rate_per_unit: 2 },
          { ...allYear, tier: 3, rate_per_unit: 3 },
        ],
      }),
    ).toEqual({ field: 'energy_rates.1.tier_max', message: "tiers out of order: tier 2 ends at 5, not above tier 1's 10" });
    expect(await bad({ ...createWaterTariff, energy_rates: [{ period: 'summer', months: [6, 7, 8], rate_per_unit: 1 }] })).toEqual({
      field: 'energy_rates',
      message:
        'no period covers weekdays 00:00 in January: every hour of every month needs a rate (give a 0 rate where nothing is charged)',
    });
    expect(await bad({ ...createWaterTariff, unit: 'therms' })).toEqual({
      field: 'unit',
      message: "unit 'therms' is not a unit of water (kgal, gallons, ccf, cf, m3)",
    });
    expect(await bad({ ...createWaterTariff, energy_rates: [{ ...allYear, rate_per_kwh: 1 }] })).toEqual({
      field: 'energy_rates.0.rate_per_kwh',
      message: 'a water tariff is priced per its unit: use rate_per_unit',
    });
    expect(
      await bad({
        urdb: { eiaid: 1, name: 'x', sector: 'Residential', energyratestructure: [[{ rate: 0.1 }]], energyweekdayschedule: [[0]] },
      }),
    ).toEqual({ field: 'urdb.energyweekdayschedule', message: 'energyweekdayschedule is not 12 months of 24 hours' });
  });

  it('accepts a URDB record with features the engine does not price, listing them in assumptions; refuses a schedule naming a period with no rate', async () => {
    const allDay = Array.from({ length: 12 }, () => Array<number>(24).fill(0));
    const record = {
      label: '539f6adcec4f024411ec9565',
      eiaid: 13756,
      utility: 'Northern Indiana Pub Serv Co',
      name: 'Municipal Power',
      sector: 'Commercial',
      uri: 'https://apps.openei.org/IURDB/rate/view/539f6adcec4f024411ec9565',
      startdate: 1401606000,
      energyratestructure: [[{ rate: 0.094782, adj: 0.016079 }]],
      energyweekdayschedule: allDay,
      energyweekendschedule: allDay,
      energyattrs: [{ 'Franchise fee': '1.5%' }],
      demandwindow: 15,
    };
    const created = (await create(alice, { urdb: record, effective_date: '2026-01-01' }).expect(201)).body;
    // demandwindow is read since issue 50: the window interval data's demand is averaged over.
    expect(created.versions[0].assumptions).toEqual([
      'URDB field energyattrs is published but not priced: bills on this tariff leave it out',
    ]);
    const bill = (await calc(alice, { tariff_id: created.id, usage_kwh: 1000, month: 3 }).expect(200)).body;
    // 1,000 x (0.094782 + 0.016079) = 110.861 -> 110.86
    expect(bill.total_cost).toBe(110.86);
    expect(bill.assumptions).toContain('URDB field energyattrs is published but not priced: bills on this tariff leave it out');
    const twoPeriods = { ...record, energyweekdayschedule: allDay.map((row) => row.map((_, h) => (h >= 16 ? 1 : 0))) };
    // Issue 45 item 7 replaced the normaliser's words on `urdb.energyweekdayschedule`: each month's first wrong value, at its path.
    const refused = (await create(alice, { urdb: twoPeriods }).expect(422)).body;
    expect(refused.errors[0]).toEqual({
      field: 'urdb.energyweekdayschedule[0][16]',
      message:
        'urdb.energyweekdayschedule[0][16] is 1: a period without rates (urdb.energyratestructure has 1 period, index 0); so are 7 more hours of this month',
    });
    expect(refused.errors.map((e: { field: string }) => e.field)).toEqual(
      Array.from({ length: 12 }, (_, m) => `urdb.energyweekdayschedule[${m}][16]`),
    );
    // A URDB record prices electricity only.
    expect((await create(alice, { urdb: record, utility_type: 'water', unit: 'kgal' }).expect(422)).body.errors[0].field).toBe('urdb');
  });

  it('compares own tariffs of one utility type, and refuses to compare water with sewer', async () => {
    const water = (await create(alice, createWaterTariff).expect(201)).body;
    const flat = (
      await create(alice, { ...createWaterTariff, name: 'Flat water', energy_rates: [{ ...allYear, rate_per_unit: 2.5 }] }).expect(201)
    ).body;
    const sewer = (await create(alice, HARLINGEN_SEWER).expect(201)).body;
    const compare = (body: unknown) => as(t, alice).post('/calculate/compare', body);
    const res = (await compare({ tariff_ids: [water.id, flat.id], usage: 12, unit: 'kgal', month: 7 }).expect(200)).body;
    // Tiered 31.51; flat 12 x 2.50 + 9.91 = 39.91
    expect(res.results.map((r: { tariff_id: string; total_cost: number }) => [r.tariff_id, r.total_cost])).toEqual([
      [water.id, 31.51],
      [flat.id, 39.91],
    ]);
    expect(res).toMatchObject({ usage_kwh: null, utility_type: 'water', usage: 12, unit: 'kgal', cheapest: water.id });
    const mixed = await compare({ tariff_ids: [water.id, sewer.id], usage: 12, unit: 'kgal' }).expect(422);
    expect(mixed.body.errors[0]).toEqual({
      field: 'tariff_ids',
      message: `tariffs of different utility types cannot be compared: ${water.id} prices water, ${sewer.id} sewer`,
    });
  });

  it('keeps at most 50 versions of a tariff', async () => {
    const water = (await create(alice, createWaterTariff).expect(201)).body;
    await t.deps.database.db
      .execute(sql`insert into custom_tariff_versions (tariff_id, effective_date, structure, applicability, assumptions, source)
      select tariff_id, effective_date + g, structure, applicability, assumptions, source
      from custom_tariff_versions, generate_series(1, 48) g where tariff_id = ${water.id}`);
    const next = { effective_date: '2030-01-01', energy_rates: [{ ...allYear, rate_per_unit: 2 }] };
    await as(t, alice).post(`/tariffs/custom/${water.id}/versions`, next).expect(201);
    const over = await as(t, alice)
      .post(`/tariffs/custom/${water.id}/versions`, { ...next, effective_date: '2030-02-01' })
      .expect(422);
    expect(over.body.detail).toBe('at most 50 versions per tariff');
  });

  it('keeps at most 500 tariffs per account', async () => {
    const carol = await registerUser(t);
    await t.deps.database.db
      .execute(sql`insert into custom_tariffs (id, owner_id, name, utility_name, sector, utility_type, unit, service_type, description, source_url)
      select 'ct_' || lpad(to_hex(g), 32, '0'), ${carol.user.id}, 'Filler ' || g, 'Water dept', 'residential', 'water', 'kgal', 'bundled', '', ''
      from generate_series(1, 499) g`);
    await create(carol.token, createWaterTariff).expect(201);
    const over = await create(carol.token, createWaterTariff).expect(422);
    expect(over.body.detail).toBe('at most 500 custom tariffs per account: retire one (DELETE /tariffs/{id}) first');
  });
});
