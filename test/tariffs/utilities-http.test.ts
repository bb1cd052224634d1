import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import { errorBody } from '../helpers/error-body';

const PGE_B19 = '5e17b4ef5457a3556573e3b0';
const PGE_E20_EXPIRED = '539f6d0aec4f024411ecb11d';
const PRESQUE_DEMAND = '539f6b73ec4f024411ec9d2d';
const MDU_DAILY = '5925fea75457a30036de90e2';
const ENTERGY_FUEL = '58f637615457a3f14e156660'; // Entergy Gulf States Louisiana, monthly fuel adjustments

describe('utility endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedTariffs(t.deps.database, [PGE_B19, PGE_E20_EXPIRED, PRESQUE_DEMAND, MDU_DAILY, ENTERGY_FUEL]);
  });
  afterAll(() => t.stop());

  it('GET /utilities/search: partial case-insensitive name, search item fields, nulls for data EIA lacks', async () => {
    const res = await request(t.app).get('/api/v1/utilities/search?q=GAS%20%26%20elec').expect(200);
    expect(res.body).toEqual({
      items: [
        {
          id: '14328',
          name: 'Pacific Gas & Electric Co.',
          abbreviation: null,
          state: 'CA',
          type: 'investor_owned',
          website: null,
          tariff_count: 2,
        },
      ],
      total: 1,
      page: 1,
      per_page: 20,
      pages: 1,
    });
    const coop = await request(t.app).get('/api/v1/utilities/search?q=coop').expect(200);
    expect(coop.body.items.map((u: { id: string }) => u.id)).toEqual(['15340']);
    expect(coop.body.items[0]).toMatchObject({ name: 'Presque Isle Elec & Gas Coop', type: 'cooperative', state: 'MI' });
  });

  it('GET /utilities/search: state filter, name order, pagination, 422 for bad input', async () => {
    const all = await request(t.app).get('/api/v1/utilities/search').expect(200);
    // Issue 45: Entergy Gulf States Louisiana (55936), merged into Entergy Louisiana in 2015, files its tariffs under its successor.
    expect(all.body.items.map((u: { name: string }) => u.name)).toEqual([
      'Entergy Louisiana LLC',
      'Montana-Dakota Utilities Co',
      'Pacific Gas & Electric Co.',
      'Presque Isle Elec & Gas Coop',
    ]);
    const nd = await request(t.app).get('/api/v1/utilities/search?state=nd').expect(200);
    expect(nd.body.items.map((u: { id: string }) => u.id)).toEqual(['12199']);
    const page = await request(t.app).get('/api/v1/utilities/search?per_page=3&page=2').expect(200);
    expect(page.body).toMatchObject({ total: 4, page: 2, per_page: 3, pages: 2 });
    expect(page.body.items).toHaveLength(1);
    const beyond = await request(t.app).get('/api/v1/utilities/search?per_page=3&page=3').expect(200);
    expect(beyond.body.items).toEqual([]);
    expect((await request(t.app).get('/api/v1/utilities/search?state=ZZ').expect(422)).body.detail).toBe('Invalid state code');
    await request(t.app).get('/api/v1/utilities/search?per_page=101').expect(422);
    await request(t.app).get('/api/v1/utilities/search?q=').expect(422);
  });

  it('GET /utilities/{id}: detail from EIA-861 with the multi-state rule (most customers)', async () => {
    const res = await request(t.app).get('/api/v1/utilities/12199').expect(200);
    // EIA-861 2018 customers: ND 92,861, MT 25,673, WY 15,989, SD 8,499; 87 ZIP codes in the OpenEI tables.
    expect(res.body).toEqual({
      id: '12199',
      name: 'Montana-Dakota Utilities Co',
      abbreviation: null,
      state: 'ND',
      type: 'investor_owned',
      website: null,
      phone: null,
      service_territory: expect.stringMatching(/^MT: .*; ND: .*; SD: .*; WY: /),
      // 87 ZIP codes of the OpenEI table, 93 more from the ENERGY STAR table (issue 26) and 28 from the EIA-861 counties
      // the 2011 investor-owned table misses (issue 45).
      customers_served: 143022,
      tariff_count: 1,
      zip_codes_served: 208,
      data_sources: {
        utility: { table: 'EIA Form 861 (utility data, sales, service territory, short form)', edition: 2018 },
        zip_codes: [
          {
            table: 'OpenEI U.S. Electric Utility Companies and Rates: Look-up by Zipcode, investor-owned utilities',
            edition: 2011,
            zip_codes: 87,
          },
          {
            table: 'ENERGY STAR Portfolio Manager utility map (via Rewiring America), matched to EIA ids by energystar_utility_match.csv',
            edition: 2025,
            zip_codes: 93,
          },
          {
            table: 'EIA-861 service territory (counties), for counties the 2011 investor-owned ZIP table misses',
            edition: 2018,
            zip_codes: 28,
          },
        ],
      },
    });
    const pge = await request(t.app).get('/api/v1/utilities/14328').expect(200);
    // 1,024 ZIP codes in the OpenEI tables, 1,177 with the ENERGY STAR table (issue 26), 1,181 with the EIA-861 counties the
    // 2011 table misses (issue 45: 4 ZIP codes of Trinity County).
    expect(pge.body).toMatchObject({ customers_served: 5471786, zip_codes_served: 1181, tariff_count: 2 });
    expect(pge.body.service_territory.startsWith('CA: Alameda, Alpine, Amador')).toBe(true);
  });

  it('GET /utilities/{id} states the edition of each ZIP table behind the utility (non-investor-owned: 2023)', async () => {
    const presque = await request(t.app).get('/api/v1/utilities/15340').expect(200);
    expect(presque.body.data_sources.zip_codes).toEqual([
      {
        table: 'OpenEI U.S. Electric Utility Companies and Rates: Look-up by Zipcode, non-investor-owned utilities',
        edition: 2023,
        zip_codes: presque.body.zip_codes_served,
      },
    ]);
    expect(presque.body.zip_codes_served).toBeGreaterThan(0);
  });

  it('GET /utilities/{id} of an unknown id is 404 Utility not found', async () => {
    expect((await request(t.app).get('/api/v1/utilities/99999999').expect(404)).body).toEqual(errorBody({ detail: 'Utility not found' }));
  });

  it('GET /utilities/by-zip/{zip_code}: array of serving utilities; 404 and 422 rows', async () => {
    const res = await request(t.app).get('/api/v1/utilities/by-zip/58501').expect(200);
    // Issue 45: each item adds `primary` (the first) and the estimated customers in the ZIP code's county it is ordered by.
    expect(res.body).toEqual([
      {
        id: '12199',
        name: 'Montana-Dakota Utilities Co',
        abbreviation: null,
        state: 'ND',
        type: 'investor_owned',
        tariff_count: 1,
        primary: true,
        estimated_customers_in_county: 8125,
      },
    ]);
    expect((await request(t.app).get('/api/v1/utilities/by-zip/00000').expect(404)).body).toEqual(
      errorBody({ detail: 'No utilities found for ZIP code' }),
    );
    for (const bad of ['1234', '123456', 'abcde', '9410a']) {
      const r = await request(t.app).get(`/api/v1/utilities/by-zip/${bad}`).expect(422);
      expect(r.body).toEqual(
        errorBody({ detail: 'Invalid ZIP code format', errors: [{ field: 'zip_code', message: 'Invalid ZIP code format' }] }),
      );
    }
  });

  it('tariff detail lists monthly fuel adjustments as riders', async () => {
    const res = await request(t.app).get(`/api/v1/tariffs/${ENTERGY_FUEL}`).expect(200);
    expect(res.body.riders).toHaveLength(12);
    expect(res.body.riders[0]).toEqual({
      // Issue 31: each rider says the months whose bills carry it, so a detail can be sent back as a custom tariff.
      name: 'Fuel adjustment (January)',
      rate_per_kwh: 0.02376,
      months: [1],
      description: 'Monthly fuel cost adjustment published with the tariff, charged per kWh on bills for January.',
    });
    expect(res.body.riders[11].rate_per_kwh).toBe(0.02664);
    expect(res.body.energy_rates[0].rate_per_kwh).toBe(0.060766); // 0.05587 + 0.004896
  });
});
