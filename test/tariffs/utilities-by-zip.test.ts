import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import { errorBody } from '../helpers/error-body';

/**
 * Issue 45 item 3: the utility that serves the ZIP code. Real tariffs of the utilities below are
 * seeded (with every ZIP code of theirs, as the import stores them); data/reference/README.md "Who
 * serves a ZIP code" works the Columbus figures out.
 */
const CSP_RESIDENTIAL = '539f70e5ec4f024411ecdf9f'; // Columbus Southern Power Co (EIA 4062) "Residential Service: SCHEDULE R-R"
const OHIO_POWER_GS1 = '5964ee0a5457a34b4a4c9f92'; // Ohio Power Co (14006) "Secondary General Service (GS-1)", 2017
const COLUMBUS_KW22 = '539f7050ec4f024411ecd8f1'; // City of Columbus - (OH) (4065) "Commercial (KW22)"
const NSTAR_G1 = '5cd343a85457a3f73d54e9d9'; // NSTAR Electric Company (54913) "Greater Boston General Service without Demand Meter G-1"
const CHICOPEE_RS = '539f7338ec4f024411ecfa47'; // City of Chicopee - (MA) (3477) "Residential Service"

describe('GET /utilities/by-zip: the utility that serves the ZIP code (issue 45)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedTariffs(t.deps.database, [CSP_RESIDENTIAL, OHIO_POWER_GS1, COLUMBUS_KW22, NSTAR_G1, CHICOPEE_RS]);
  });
  afterAll(() => t.stop());

  const byZip = async (zip: string) =>
    (await request(t.app).get(`/api/v1/utilities/by-zip/${zip}`).expect(200)).body as Array<Record<string, unknown>>;

  it('downtown Columbus (43215): Ohio Power (EIA 14006) first and primary, the municipal utility after it', async () => {
    // Before: only the City of Columbus, by name. No ZIP table lists an investor-owned utility in Franklin County; EIA-861
    // lists Ohio Power there (its estimated 110,274 customers in the county against the city's 12,905).
    expect(await byZip('43215')).toEqual([
      {
        id: '14006',
        name: 'Ohio Power Co',
        abbreviation: null,
        state: 'OH',
        type: 'investor_owned',
        tariff_count: 2,
        primary: true,
        estimated_customers_in_county: 110274,
      },
      {
        id: '4065',
        name: 'City of Columbus - (OH)',
        abbreviation: null,
        state: 'OH',
        type: 'municipal',
        tariff_count: 1,
        primary: false,
        estimated_customers_in_county: 12905,
      },
    ]);
    // The other Columbus ZIP codes alike: one primary, first.
    for (const zip of ['43201', '43206', '43230']) {
      const list = await byZip(zip);
      expect(list.map((u) => [u.id, u.primary])).toEqual([
        ['14006', true],
        ['4065', false],
      ]);
    }
  });

  it("a merged utility is its successor: Columbus Southern Power's tariff is Ohio Power's; Western Massachusetts Electric is NSTAR", async () => {
    const tariff = (await request(t.app).get(`/api/v1/tariffs/${CSP_RESIDENTIAL}`).expect(200)).body;
    expect(tariff).toMatchObject({ utility_id: '14006', utility_name: 'Ohio Power Co', state: 'OH' });
    expect(tariff.eligibility).toMatch(
      /Filed by Columbus Southern Power Co \(EIA 4062\) before it merged into Ohio Power Co on 2011-12-31: for customers of its former service area\.$/,
    );
    // Springfield, MA: the 2011 table lists Western Massachusetts Electric (20455), merged into NSTAR Electric on 2017-12-31
    expect((await byZip('01104')).map((u) => [u.id, u.name, u.primary, u.estimated_customers_in_county])).toEqual([
      ['54913', 'NSTAR Electric Company', true, 142538],
      ['3477', 'City of Chicopee - (MA)', false, 25353],
    ]);
    expect((await request(t.app).get('/api/v1/utilities/20455').expect(404)).body).toEqual(errorBody({ detail: 'Utility not found' }));
    expect((await request(t.app).get('/api/v1/utilities/4062').expect(404)).body).toEqual(errorBody({ detail: 'Utility not found' }));
  });

  it("a ZIP code's tariffs now include its primary utility's, and the utility states where its ZIP codes come from", async () => {
    const search = await request(t.app).get('/api/v1/tariffs/search?zip_code=43215&per_page=100').expect(200);
    expect(search.body.items.map((i: { id: string }) => i.id).sort()).toEqual([CSP_RESIDENTIAL, COLUMBUS_KW22, OHIO_POWER_GS1].sort());
    const ohioPower = (await request(t.app).get('/api/v1/utilities/14006').expect(200)).body;
    expect(ohioPower.data_sources.zip_codes).toEqual(
      expect.arrayContaining([
        {
          table: 'EIA-861 service territory (counties), for counties the 2011 investor-owned ZIP table misses',
          edition: 2018,
          zip_codes: expect.any(Number),
        },
      ]),
    );
  });

  it('documents the two new fields in OpenAPI', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body;
    const op = doc.paths['/api/v1/utilities/by-zip/{zip_code}'].get;
    expect(op.description).toContain('the first item is the primary utility');
    const schema = JSON.stringify(op.responses['200']);
    expect(schema).toContain('estimated_customers_in_county');
    expect(schema).toContain('primary');
  });
});
