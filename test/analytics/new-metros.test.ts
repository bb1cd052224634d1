import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser, setTier, type RegisteredTestUser } from '../helpers/users';
import { as, createProperty } from '../pm/helpers';
import { importReferenceData } from '../../src/modules/tariffs/importer';
import { NOW } from './helpers';

/**
 * Issue 45, tried again as a new user in ten metros no other test names (Minneapolis, Kansas City, Louisville,
 * Milwaukee, Tampa, Salt Lake City, Omaha, Richmond, Portland, Oklahoma City): what a rate analyst rejected there,
 * on the whole bundled catalog.
 */
describe('advice in metros no other test names (issue 45 new-user pass)', () => {
  let t: TestApp;
  let pro: RegisteredTestUser;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    await importReferenceData(t.deps.database.db, { now: NOW });
    pro = await registerUser(t);
    await setTier(t, pro.user.id, 'pro');
  }, 180_000);
  afterAll(() => t.stop());

  /** Rate analysis of a 60,000 sqft office on `tariffId` with the month's usage and peak. */
  const analyzeOffice = async (where: { city: string; state: string; zip_code: string }, tariffId: string, kwh: number, kw: number) => {
    const p = await createProperty(t, pro.token, {
      name: `${where.city} office`,
      address: '1 Main St',
      ...where,
      property_type: 'commercial',
      unit_count: 1,
      sqft: 60_000,
      tariff_id: tariffId,
      monthly_usage_kwh: kwh,
      monthly_demand_kw: kw,
    });
    return (await as(t, pro.token).post(`/pm/properties/${p.id}/analyze-rates`).expect(200)).body;
  };
  const PORTLAND = { city: 'Portland', state: 'OR', zip_code: '97204' };

  const office = (zip: string, state: string, city: string) =>
    as(t, pro.token)
      .post('/pm/due-diligence', {
        address: '1 Main St',
        city,
        state,
        zip_code: zip,
        unit_count: 1,
        sqft: 60_000,
        property_type: 'commercial',
      })
      .expect(200);

  it('Portland: a record whose energy price is below zero (PGE Rate 485, a credit without its supply) is never the price quoted', async () => {
    const res = (await office('97204', 'OR', 'Portland')).body;
    expect(res.serving_utility.name).toBe('Portland General Electric Co');
    expect(res.best_tariff.name).not.toBe('Large Non-Residential Service, Secondary Voltage (Rate 485)');
    // 876,000 kWh a year: not the quarter-price of Rate 485 ($20,779)
    expect(res.estimated_costs.annual_energy_cost / 876_000).toBeGreaterThan(0.05);
  });

  it("Portland rate analysis: Rate 485's negative energy price sends it to review with the reason, never to a saving", async () => {
    const res = await analyzeOffice(PORTLAND, '5cc719bd5457a34b0de327dc', 90_000, 250);
    const rate485 = res.needs_review.find((r: { tariff_id: string }) => r.tariff_id === '5ccb0ec05457a3b544e327dc');
    expect(rate485.reason).toContain('Its energy price is below zero ($-0.005926/kWh in period 1)');
    expect(res.recommendation).not.toBe('5ccb0ec05457a3b544e327dc');
    expect(res.alternatives.map((a: { tariff_id: string }) => a.tariff_id)).not.toContain('5ccb0ec05457a3b544e327dc');
  });

  it('Portland rate analysis on a delivery-only tariff without a supply price says the costs leave out supply', async () => {
    const res = await analyzeOffice(PORTLAND, '5cc70fb65457a3430ee327dd', 45_000, 150);
    expect(res.assumptions).toContain(
      'Large Non Residential Service, Three Phase (Rate 83) is delivery only and the property has no ' +
        'supply_rate_per_kwh or supply contract: every cost here leaves out the energy supply (set either to compare whole bills)',
    );
  });

  it('Buffalo: advice to stay on a tariff whose own limits do not admit the property says so (Niagara Mohawk SC2 Zone A, 100 kW)', async () => {
    const res = await analyzeOffice({ city: 'Buffalo', state: 'NY', zip_code: '14202' }, '56f5b1615457a3177a7112bf', 45_000, 150);
    expect(res.assumptions).toContain(
      'The current tariff SC2- Zone A (Metered) may not admit the property: peak demand 150 kW is above the ' +
        "tariff's maximum of 100 kW; the utility may move it to another schedule, so its cost here, and any advice to stay on it, may not hold",
    );
    // Its record is Niagara Mohawk's delivery charges alone ($0.009983/kWh, $11.09/kW): the plausibility check says so of the current tariff too.
    expect(
      res.assumptions.some(
        (a: string) =>
          a.startsWith('The current tariff SC2- Zone A (Metered) is priced at $0.0') &&
          a.includes("below half Niagara Mohawk Power Corp.'s average commercial rate, $0.099869/kWh"),
      ),
    ).toBe(true);
  });

  it('Baltimore without a tariff: the current records are BGE\'s "(Unbundled)" schedules, and the answer says the costs are delivery only', async () => {
    const p = await createProperty(t, pro.token, {
      name: 'Baltimore office',
      address: '1 Main St',
      city: 'Baltimore',
      state: 'MD',
      zip_code: '21202',
      property_type: 'commercial',
      unit_count: 1,
      sqft: 60_000,
      monthly_usage_kwh: 30_000,
      monthly_demand_kw: 100,
    });
    const res = (await as(t, pro.token).post(`/pm/properties/${p.id}/analyze-rates`).expect(200)).body;
    expect(res.assumptions).toContain(
      'Baltimore Gas & Electric Co has no current bundled tariff in the catalog: the tariffs compared, and the one ' +
        "recommended, are delivery only, and every cost here leaves out the energy supply (set the property's supply_rate_per_kwh or supply " +
        'contract to compare whole bills, or its tariff_id)',
    );
  });

  it('Stillwater: a record missing part of the bill (PL-S/TOD, no energy charge) is for review, never a saving', async () => {
    // On General Service (GS, $3,075.67 a month here), Stillwater's "Power and Light TOD - Secondary" ($1,207.34) looked like a
    // 61 % saving: its record has no energy charge at all (demand charges only), below half Stillwater's commercial average.
    const res = await analyzeOffice({ city: 'Stillwater', state: 'OK', zip_code: '74074' }, '56212c045457a30669a988fe', 30_000, 100);
    const tod = res.needs_review.find((r: { tariff_id: string }) => r.tariff_id === '56212a2f5457a34551a988fe');
    expect(tod.reason).toBe(
      "priced at $0.0402/kWh for this usage, below half Stillwater Utilities Authority's average commercial rate, " +
        '$0.104679/kWh (EIA Form 861, sales to ultimate customers (revenue / sales), 2018): a record missing part of the bill ' +
        '(supply, or the delivery charges)',
    );
    expect(res.alternatives.map((a: { tariff_id: string }) => a.tariff_id)).not.toContain('56212a2f5457a34551a988fe');
    expect(res.recommendation).not.toBe('56212a2f5457a34551a988fe');
  });

  it("Salt Lake City: PacifiCorp's California schedules are California's, not offered in Utah", async () => {
    const search = await as(t, pro.token).get('/tariffs/search?zip_code=84111&sector=commercial&per_page=100').expect(200);
    const names = search.body.items.map((i: { name: string }) => i.name);
    expect(names.some((n: string) => /^Schedule A-(25|32|36)\b|AT-48/.test(n))).toBe(false);
    const ca = await as(t, pro.token).get('/tariffs/53b2fc9b5257a3e776050f96').expect(200);
    expect(ca.body.state).toBe('CA');
  });

  it('Minneapolis: the 2015 "General Service (A14)" is superseded by its 2020 "... Secondary Voltage" revision', async () => {
    const a14 = (await as(t, pro.token).get('/tariffs/555604d45457a33b558b4576').expect(200)).body;
    expect(a14.superseded_by).toBe('604b87135457a34d3b09d556');
    const res = (await office('55401', 'MN', 'Minneapolis')).body;
    expect(res.best_tariff.name).not.toBe('General Service (A14)');
  });

  it('New Orleans: "Large Electric Service (LE-23)" of 2016 is superseded by its 2019 revision "... Secondary (LE-24)"', async () => {
    // Entergy New Orleans has nothing current: before, LE-23 was a "latest known revision" beside LE-24.
    const le23 = (await as(t, pro.token).get('/tariffs/5798f45c5457a38d6d102fd2').expect(200)).body;
    expect(le23.superseded_by).toBe('5cd48a7a5457a3c83d54e9d5');
  });

  it('Honolulu: Hawaiian Electric\'s Schedule J (25 to 300 kW), published "Single Phase", is no single-phase rate for a 150 kW office', async () => {
    const res = await analyzeOffice({ city: 'Honolulu', state: 'HI', zip_code: '96813' }, '55e870415457a3cb7e8e8004', 45_000, 150);
    // before, advice to stay said Schedule J might not admit the office: "single-phase service only: a 150 kW demand takes three-phase service"
    expect(res.assumptions.filter((a: string) => a.includes('single-phase service only'))).toEqual([]);
  });

  it('Oklahoma City: a critical-peak-pricing option is not the price quoted', async () => {
    const res = (await office('73102', 'OK', 'Oklahoma City')).body;
    expect(res.serving_utility.name).toBe('Oklahoma Gas & Electric Co');
    expect(res.best_tariff.name).not.toMatch(/CPP/);
  });

  it('Louisville: current records that are all special-purpose are no current catalog; the latest general revisions are priced', async () => {
    const res = (await office('40202', 'KY', 'Louisville')).body;
    expect(res.serving_utility.name).toBe('Louisville Gas & Electric Co');
    expect(res.catalog_current).toBe(false);
    expect(
      res.assumptions.some((a: string) =>
        /that this building could take \(its \d+ current ones? (is|are) special-purpose or restricted\)/.test(a),
      ),
    ).toBe(true);
  });
  it('Kansas City: a 48-unit building without a peak is told its current tariffs charge for demand, not that nothing is current', async () => {
    // Issue 45 fourth new-user pass: Evergy's (KCP&L's) current commercial schedules in Missouri all bill demand; without
    // monthly_demand_kw none can be priced, and the answer said "no current tariff in the catalog the property could take".
    const p = await createProperty(t, pro.token, {
      name: 'Kansas City apartments',
      address: '1 Main St',
      city: 'Kansas City',
      state: 'MO',
      zip_code: '64105',
      property_type: 'residential',
      unit_count: 48,
      sqft: 42_000,
      monthly_usage_kwh: 30_000,
    });
    const res = await as(t, pro.token).post(`/pm/properties/${p.id}/analyze-rates`).expect(400);
    expect(res.body.detail).not.toMatch(/no current tariff/);
    expect(res.body.detail).toMatch(
      /^Kansas City Power & Light Co's current tariffs the property could take charge for demand \(\d+, e\.g\. .+\): set the property's monthly_demand_kw \(or record electric bills with demand_kw\) to compare them$/,
    );
  });
});
