import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import { errorBody } from '../helpers/error-body';

// Real URDB tariffs (data/reference); expectations worked out by hand from their records and EIA-861.
const PGE_B19 = '5e17b4ef5457a3556573e3b0'; // PG&E, CA, commercial, TOU + demand, net metering
const PGE_E20_EXPIRED = '539f6d0aec4f024411ecb11d'; // PG&E, ended 2014-04-30
const SURPRISE_FLAT = '539f6a0aec4f024411ec8ab1'; // Surprise Valley (CA by customers), flat
const SCRIBNER_TIERED = '539f6a0aec4f024411ec8aa7'; // City of Scribner (NE), tiered seasonal
const CNM_TOU = '539f6a63ec4f024411ec8eed'; // Central New Mexico El Coop (NM), residential TOU
const PRESQUE_DEMAND = '539f6b73ec4f024411ec9d2d'; // Presque Isle (MI), facility + TOU demand
const MDU_DAILY = '5925fea75457a30036de90e2'; // Montana-Dakota Utilities Co (Wyoming): WY, daily charge, net metering
const LOCKHART_DEMAND = '53b16f625257a32153ce10db'; // Lockhart Power (SC), flat demand

const COINCIDENT = '539f6a7fec4f024411ec902b'; // Commercial Time-of-Peak (EIA 14062): coincident-peak demand
const ADDITIONAL_METER = '5908ae4c5457a3b06c578a02'; // Rate 1.2 Residential TOU (EIA 19791): $5.62 per additional meter

// Utility name, tariff name, id order of the current (not expired) ones.
const CURRENT_IN_ORDER = [CNM_TOU, SCRIBNER_TIERED, LOCKHART_DEMAND, MDU_DAILY, PGE_B19, PRESQUE_DEMAND, SURPRISE_FLAT];

describe('tariff endpoints', () => {
  let t: TestApp;
  const ids = async (query: string) => {
    const res = await request(t.app).get(`/api/v1/tariffs/search?${query}`).expect(200);
    return res.body.items.map((i: { id: string }) => i.id);
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-01-01T12:00:00Z') });
    await seedTariffs(t.deps.database, [
      PGE_B19,
      PGE_E20_EXPIRED,
      SURPRISE_FLAT,
      SCRIBNER_TIERED,
      CNM_TOU,
      PRESQUE_DEMAND,
      MDU_DAILY,
      LOCKHART_DEMAND,
    ]);
  });
  afterAll(() => t.stop());

  it('search without filters lists current tariffs by utility name, tariff name, id, as tariff summaries', async () => {
    const res = await request(t.app).get('/api/v1/tariffs/search').expect(200);
    expect(res.body).toMatchObject({ total: 7, page: 1, per_page: 20, pages: 1 });
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(CURRENT_IN_ORDER);
    expect(res.body.items[0]).toEqual({
      id: CNM_TOU,
      name: 'Time of Use Residential Service (Rate 25)',
      utility_id: '3273',
      utility_name: 'Central New Mexico El Coop, Inc',
      state: 'NM',
      sector: 'residential',
      rate_type: 'tou',
      has_tou: true,
      has_demand: false,
      has_net_metering: false,
      effective_date: null,
      service_type: 'bundled',
      voltage: null,
      purpose: 'general',
      description: 'Any residential consumers wishing to abide by the on peak off peak hours are eligible.',
      // Issue 49: a summary says where the tariff came from, as the detail does.
      source: 'bundled',
      source_updated_at: null,
    });
  });

  it('filters by tariff class; an unknown class value is a 422 naming the allowed ones (issue 26)', async () => {
    // PGE_B19 is "B-19 ... Option R": only for customers whose solar covers 15 % of their usage.
    expect(await ids('purpose=general&state=CA')).toEqual([SURPRISE_FLAT]);
    expect(await ids('purpose=distributed_generation&voltage=secondary')).toEqual([PGE_B19]);
    expect(await ids('service_type=delivery_only')).toEqual([]);
    expect(await ids('purpose=lighting')).toEqual([]);
    const bad = await request(t.app).get('/api/v1/tariffs/search?purpose=parking').expect(422);
    expect(bad.body.detail).toMatch(/^value is not a valid enumeration member; permitted: 'general', 'lighting'/);
    expect(bad.body.errors[0].field).toBe('purpose');
    await request(t.app).get('/api/v1/tariffs/search?voltage=medium').expect(422);
    await request(t.app).get('/api/v1/tariffs/search?service_type=bundle').expect(422);
  });

  it('include_expired=true adds tariffs whose expiration date has passed', async () => {
    expect(await ids('include_expired=true')).toEqual([
      CNM_TOU,
      SCRIBNER_TIERED,
      LOCKHART_DEMAND,
      MDU_DAILY,
      PGE_B19,
      PGE_E20_EXPIRED,
      PRESQUE_DEMAND,
      SURPRISE_FLAT,
    ]);
    expect(await ids('include_expired=false')).toEqual(CURRENT_IN_ORDER);
  });

  it('filters by ZIP (utilities serving it), state, partial utility name, sector and rate type', async () => {
    expect(await ids('zip_code=95616')).toEqual([PGE_B19]);
    expect(await ids('zip_code=95616&include_expired=true')).toEqual([PGE_B19, PGE_E20_EXPIRED]);
    // A ZIP code's tariffs are its state's only (issue 26): MDU_DAILY is Montana-Dakota's Wyoming tariff, not for Bismarck, ND.
    expect(await ids('zip_code=58501&sector=commercial')).toEqual([]);
    expect(await ids('state=WY&sector=commercial')).toContain(MDU_DAILY);
    expect(await ids('zip_code=00000')).toEqual([]);
    expect(await ids('state=ca')).toEqual([PGE_B19, SURPRISE_FLAT]);
    expect(await ids('state=NE')).toEqual([SCRIBNER_TIERED]);
    // Montana-Dakota has most customers in ND, but this tariff's URDB utility name says Wyoming.
    expect(await ids('state=WY')).toEqual([MDU_DAILY]);
    expect(await ids('state=ND')).toEqual([]);
    expect(await ids('utility_name=ELECTRI')).toEqual([PGE_B19, SURPRISE_FLAT]);
    expect(await ids('utility_name=electric')).toEqual([PGE_B19]);
    expect(await ids('utility_name=presque')).toEqual([PRESQUE_DEMAND]);
    expect(await ids('utility_name=%25')).toEqual([]);
    expect(await ids('sector=residential')).toEqual([CNM_TOU]);
    expect(await ids('sector=lighting')).toEqual([]);
    expect(await ids('rate_type=demand')).toEqual([LOCKHART_DEMAND, PRESQUE_DEMAND]);
    expect(await ids('rate_type=flat')).toEqual([MDU_DAILY, SURPRISE_FLAT]);
    expect(await ids('rate_type=tiered')).toEqual([SCRIBNER_TIERED]);
    expect(await ids('rate_type=real_time')).toEqual([]);
  });

  it('filters by the boolean flags, and filters combine', async () => {
    expect(await ids('has_tou=true')).toEqual([CNM_TOU, PGE_B19]);
    expect(await ids('has_tou=0')).toEqual([SCRIBNER_TIERED, LOCKHART_DEMAND, MDU_DAILY, PRESQUE_DEMAND, SURPRISE_FLAT]);
    expect(await ids('has_demand=true')).toEqual([LOCKHART_DEMAND, PGE_B19, PRESQUE_DEMAND]);
    expect(await ids('has_net_metering=1')).toEqual([MDU_DAILY, PGE_B19]);
    expect(await ids('state=CA&has_tou=true&sector=commercial&has_demand=true&has_net_metering=true')).toEqual([PGE_B19]);
    expect(await ids('state=CA&has_tou=false')).toEqual([SURPRISE_FLAT]);
  });

  it('paginates: pages of per_page, an empty page beyond the last, 422 outside the limits', async () => {
    const p2 = await request(t.app).get('/api/v1/tariffs/search?per_page=2&page=2').expect(200);
    expect(p2.body).toMatchObject({ total: 7, page: 2, per_page: 2, pages: 4 });
    expect(p2.body.items.map((i: { id: string }) => i.id)).toEqual([LOCKHART_DEMAND, MDU_DAILY]);
    const last = await request(t.app).get('/api/v1/tariffs/search?per_page=2&page=4').expect(200);
    expect(last.body.items.map((i: { id: string }) => i.id)).toEqual([SURPRISE_FLAT]);
    const beyond = await request(t.app).get('/api/v1/tariffs/search?per_page=2&page=5').expect(200);
    expect(beyond.body).toEqual({ items: [], total: 7, page: 5, per_page: 2, pages: 4 });
    const none = await request(t.app).get('/api/v1/tariffs/search?sector=agricultural').expect(200);
    expect(none.body).toEqual({ items: [], total: 0, page: 1, per_page: 20, pages: 0 });
    expect((await request(t.app).get('/api/v1/tariffs/search?per_page=100').expect(200)).body.items).toHaveLength(7);
    for (const bad of ['per_page=101', 'per_page=0', 'page=0', 'page=abc']) {
      const res = await request(t.app).get(`/api/v1/tariffs/search?${bad}`).expect(422);
      expect(res.body.errors[0].field).toBe(bad.split('=')[0]);
    }
  });

  it('rejects invalid filter values with 422 and the field', async () => {
    const cases: Array<[string, string, string]> = [
      [
        'sector=marine',
        'sector',
        "value is not a valid enumeration member; permitted: 'residential', 'commercial', 'industrial', 'agricultural', 'lighting'",
      ],
      [
        'rate_type=hourly',
        'rate_type',
        "value is not a valid enumeration member; permitted: 'flat', 'tiered', 'tou', 'demand', 'real_time'",
      ],
      ['has_tou=yes', 'has_tou', 'value could not be parsed to a boolean'],
      ['has_demand=', 'has_demand', 'value could not be parsed to a boolean'],
      ['has_net_metering=2', 'has_net_metering', 'value could not be parsed to a boolean'],
      ['include_expired=maybe', 'include_expired', 'value could not be parsed to a boolean'],
      ['state=XX', 'state', 'Invalid state code'],
      ['state=CAL', 'state', 'Invalid state code'],
      ['zip_code=1234', 'zip_code', 'Invalid ZIP code format'],
      ['zip_code=abcde', 'zip_code', 'Invalid ZIP code format'],
      ['utility_name=', 'utility_name', 'ensure this value has at least 1 characters'],
    ];
    for (const [query, field, message] of cases) {
      const res = await request(t.app).get(`/api/v1/tariffs/search?${query}`).expect(422);
      expect(res.body).toEqual(errorBody({ detail: message, errors: [{ field, message }] }));
    }
  });

  it('GET /tariffs/{id}: detail with energy rates per period and tier, readable hours and days', async () => {
    const res = await request(t.app).get(`/api/v1/tariffs/${CNM_TOU}`).expect(200);
    const all = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    expect(res.body).toEqual({
      id: CNM_TOU,
      name: 'Time of Use Residential Service (Rate 25)',
      utility_id: '3273',
      utility_name: 'Central New Mexico El Coop, Inc',
      state: 'NM',
      sector: 'residential',
      rate_type: 'tou',
      has_tou: true,
      has_demand: false,
      has_net_metering: false,
      effective_date: null,
      service_type: 'bundled',
      voltage: null,
      purpose: 'general',
      description: 'Any residential consumers wishing to abide by the on peak off peak hours are eligible.',
      expiration_date: null,
      eligibility: '',
      // Issue 45 item 4: the later revision of the schedule that superseded the tariff (none here).
      superseded_by: null,
      applicability: {
        demand_kw_min: null,
        demand_kw_max: null,
        usage_kwh_min: null,
        usage_kwh_max: null,
        voltage_category: null,
        phase_wiring: null,
      },
      energy_rates: [
        {
          period: 'on_peak',
          months: all,
          hours: 'weekdays 06:00-10:00, 16:00-23:00; weekends 00:00-24:00',
          days: 'all',
          rate_per_kwh: 0.15,
          tier: 1,
          tier_max_kwh: null,
        },
        {
          period: 'off_peak',
          months: all,
          hours: '00:00-16:00, 23:00-24:00',
          days: 'weekdays',
          rate_per_kwh: 0.062,
          tier: 1,
          tier_max_kwh: null,
        },
      ],
      demand_rates: [],
      fixed_charges: [{ name: 'Fixed customer charge', amount: 19, frequency: 'monthly' }],
      riders: [],
      // Issue 31 (custom tariffs in the detail shape): the minimum charge, the utility type and the usage unit.
      minimum_charge: null,
      utility_type: 'electric',
      unit: 'kWh',
      source_url: `https://apps.openei.org/IURDB/rate/view/${CNM_TOU}`,
      last_updated: '2015-03-26T21:26:20.000Z',
      source: 'bundled',
      source_updated_at: null,
    });
  });

  it('detail of tiered seasonal and demand tariffs', async () => {
    const tiered = await request(t.app).get(`/api/v1/tariffs/${SCRIBNER_TIERED}`).expect(200);
    const summer = [6, 7, 8, 9];
    const winter = [1, 2, 3, 4, 5, 10, 11, 12];
    const day = { hours: '00:00-24:00', days: 'all' };
    expect(tiered.body.energy_rates).toEqual([
      { period: 'summer', months: summer, ...day, rate_per_kwh: 0.1373, tier: 1, tier_max_kwh: 200 },
      { period: 'summer', months: summer, ...day, rate_per_kwh: 0.0544, tier: 2, tier_max_kwh: null },
      { period: 'winter', months: winter, ...day, rate_per_kwh: 0.0939, tier: 1, tier_max_kwh: 200 },
      { period: 'winter', months: winter, ...day, rate_per_kwh: 0.0391, tier: 2, tier_max_kwh: null },
    ]);
    const demand = await request(t.app).get(`/api/v1/tariffs/${PRESQUE_DEMAND}`).expect(200);
    const all = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    expect(demand.body.demand_rates).toEqual([
      { period: 'all_year', months: all, type: 'facility', rate_per_kw: 6.55, tier: 1, tier_max_kw: null },
      // Issue 31: time-of-use demand periods say when they apply, so the detail can be sent back as a custom tariff.
      {
        period: 'off_peak',
        months: all,
        type: 'tou',
        hours: 'weekdays 00:00-17:00, 22:00-24:00; weekends 00:00-24:00',
        days: 'all',
        rate_per_kw: 0,
        tier: 1,
        tier_max_kw: null,
      },
      { period: 'on_peak', months: all, type: 'tou', hours: '17:00-22:00', days: 'weekdays', rate_per_kw: 6, tier: 1, tier_max_kw: null },
    ]);
    expect(demand.body.energy_rates).toEqual([
      { period: 'all_year', months: all, ...day, rate_per_kwh: 0.07057, tier: 1, tier_max_kwh: null },
    ]);
    const daily = await request(t.app).get(`/api/v1/tariffs/${MDU_DAILY}`).expect(200);
    expect(daily.body.fixed_charges).toEqual([{ name: 'Fixed customer charge', amount: 0.23, frequency: 'daily' }]);
    const expired = await request(t.app).get(`/api/v1/tariffs/${PGE_E20_EXPIRED}`).expect(200);
    expect(expired.body.expiration_date).toBe('2014-04-30');
  });

  it('GET /tariffs/{id} lists coincident demand rates and the charge per additional meter', async () => {
    const extra = await createTestApp();
    try {
      await seedTariffs(extra.deps.database, [COINCIDENT, ADDITIONAL_METER]);
      const coincident = await request(extra.app).get(`/api/v1/tariffs/${COINCIDENT}`).expect(200);
      const types = coincident.body.demand_rates.map((d: { type: string }) => d.type);
      expect(types).toContain('coincident');
      expect(coincident.body.has_demand).toBe(true);
      const meter = await request(extra.app).get(`/api/v1/tariffs/${ADDITIONAL_METER}`).expect(200);
      // URDB fixedchargeeaaddl 5.62 in the record's fixed-charge units.
      expect(meter.body.fixed_charges).toContainEqual({
        name: 'Charge per additional meter (not in bills: one meter assumed)',
        amount: 5.62,
        frequency: expect.any(String),
      });
    } finally {
      await extra.stop();
    }
  });

  it('GET /tariffs/{id} publishes the applicability of the URDB record', async () => {
    // PG&E B-19 Option R (Secondary): peakkwcapacitymin 500, peakkwcapacitymax 999, voltagecategory Secondary.
    const b19 = await request(t.app).get(`/api/v1/tariffs/${PGE_B19}`).expect(200);
    expect(b19.body.applicability).toEqual({
      demand_kw_min: 500,
      demand_kw_max: 999,
      usage_kwh_min: null,
      usage_kwh_max: null,
      voltage_category: 'Secondary',
      phase_wiring: null,
    });
    expect(b19.body.eligibility).toBe('Peak demand 500-999 kW. Voltage category: Secondary. Service type: Bundled.');
  });

  it('GET /tariffs/{id} of an unknown id is 404 Tariff not found', async () => {
    const res = await request(t.app).get('/api/v1/tariffs/000000000000000000000000').expect(404);
    expect(res.body).toEqual(errorBody({ detail: 'Tariff not found' }));
  });

  it('GET /tariffs/stats counts what search finds with the same defaults: current tariffs, or all with include_expired', async () => {
    const res = await request(t.app).get('/api/v1/tariffs/stats').expect(200);
    // PG&E's E-20 (commercial, TOU) expired on 2014-04-30: left out by default, as search leaves it out.
    expect(res.body).toMatchObject({
      total_tariffs: 7,
      total_utilities: 7,
      states_covered: 6, // CA, NE, NM, MI, WY, SC
      sectors: { residential: 1, commercial: 6, industrial: 0, agricultural: 0, lighting: 0 },
      rate_types: { flat: 2, tiered: 1, tou: 2, demand: 2, real_time: 0 },
    });
    expect(Number.isNaN(Date.parse(res.body.last_updated))).toBe(false);
    const all = await request(t.app).get('/api/v1/tariffs/stats?include_expired=true').expect(200);
    expect(all.body).toMatchObject({
      total_tariffs: 8,
      total_utilities: 7,
      states_covered: 6,
      sectors: { residential: 1, commercial: 7 },
      rate_types: { flat: 2, tiered: 1, tou: 3, demand: 2 },
    });
    await request(t.app).get('/api/v1/tariffs/stats?include_expired=maybe').expect(422);
  });

  it('every stats count equals the search total with that filter, with and without include_expired', async () => {
    for (const expired of ['false', 'true']) {
      const stats = (await request(t.app).get(`/api/v1/tariffs/stats?include_expired=${expired}`).expect(200)).body;
      const total = async (filter: string) =>
        (await request(t.app).get(`/api/v1/tariffs/search?include_expired=${expired}${filter}`).expect(200)).body.total;
      expect(await total('')).toBe(stats.total_tariffs);
      for (const [sector, n] of Object.entries(stats.sectors)) expect([sector, await total(`&sector=${sector}`)]).toEqual([sector, n]);
      for (const [type, n] of Object.entries(stats.rate_types)) expect([type, await total(`&rate_type=${type}`)]).toEqual([type, n]);
    }
  });

  it('GET /tariffs/by-utility/{utility_id}: every tariff of the utility, sector filter, 404 for an unknown utility', async () => {
    const res = await request(t.app).get('/api/v1/tariffs/by-utility/14328').expect(200);
    expect(res.body).toEqual({
      items: [
        {
          id: PGE_B19,
          name: 'B-19 Medium General Demand TOU Option R (Secondary)',
          sector: 'commercial',
          rate_type: 'tou',
          has_demand: true,
          effective_date: '2020-01-01',
        },
        {
          id: PGE_E20_EXPIRED,
          name: 'E-20 (Secondary)',
          sector: 'commercial',
          rate_type: 'tou',
          has_demand: true,
          effective_date: '2014-01-01',
        },
      ],
      total: 2,
      page: 1,
      per_page: 20,
      pages: 1,
    });
    const page2 = await request(t.app).get('/api/v1/tariffs/by-utility/14328?per_page=1&page=2').expect(200);
    expect(page2.body.items.map((i: { id: string }) => i.id)).toEqual([PGE_E20_EXPIRED]);
    const residential = await request(t.app).get('/api/v1/tariffs/by-utility/14328?sector=residential').expect(200);
    expect(residential.body).toEqual({ items: [], total: 0, page: 1, per_page: 20, pages: 0 });
    await request(t.app).get('/api/v1/tariffs/by-utility/14328?sector=farm').expect(422);
    await request(t.app).get('/api/v1/tariffs/by-utility/14328?per_page=101').expect(422);
    const missing = await request(t.app).get('/api/v1/tariffs/by-utility/424242').expect(404);
    expect(missing.body).toEqual(errorBody({ detail: 'Utility not found' }));
  });
});

describe('tariff search pages are kept per day', () => {
  let t: TestApp;
  let now = new Date('2014-04-30T12:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    await seedTariffs(t.deps.database, [PGE_B19, PGE_E20_EXPIRED]);
  });
  afterAll(() => t.stop());

  it('the same query answers anew once a tariff has expired, and the kept page is served unchanged until then', async () => {
    const search = async () =>
      (await request(t.app).get('/api/v1/tariffs/search?zip_code=95616').expect(200)).body.items.map((i: { id: string }) => i.id);
    expect(await search()).toContain(PGE_E20_EXPIRED);
    const again = await request(t.app).get('/api/v1/tariffs/search?zip_code=95616').expect(200);
    expect(again.body.items.map((i: { id: string }) => i.id)).toContain(PGE_E20_EXPIRED);
    now = new Date('2014-05-01T00:00:01Z');
    expect(await search()).toEqual([PGE_B19]);
  });
});
