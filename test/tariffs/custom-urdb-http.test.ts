/**
 * Issue 31 over HTTP: the tariffs of the engine's hand-worked tests (engine.tiers, engine.tou,
 * engine.demand and engine.energy, worked by hand per NREL SAM's rules) are seeded into the catalog,
 * each one's raw URDB record is POSTed to /tariffs/custom, and every case of those tests that the API
 * can express (usage_kwh, month, demand_kw, usage_profile, tax_rate_percent) is priced by
 * /calculate on the catalog id and on the custom id: line items, total and summary must be the same,
 * and a case the catalog refuses (422) must be refused alike. The custom tariff is its owner's only.
 */
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as } from '../pm/helpers';
import { readUrdbLines } from '../../src/modules/tariffs/bundled';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';
import type { Tariff } from '../../src/modules/tariffs/tariff.model';

/** The IDS of the four hand-worked engine test files (touDemand and flatEnergy are one record). */
const IDS = {
  // engine.tiers.test.ts
  anTouB: '539f70d5ec4f024411ecdf43',
  anTouBSingle: '539fc38fec4f024c27d8bd79',
  unsSgs10Tou: '53ce83dd5257a36e75503cf8',
  // engine.tou.test.ts
  gsTod: '58f675d45457a36350156660',
  lgsTou: '539f6b16ec4f024411ec9847',
  flatEnergy: '539f6a22ec4f024411ec8b87',
  // engine.demand.test.ts
  kwhPerKw: '58f661175457a3133d156660',
  facilityTiers: '606b31765457a3d01b3caddf',
  touDemand: '539f6a22ec4f024411ec8b87',
  touEnergyDemand: '5a6233b75457a3b637e429ce',
  coincident: '539f6dfcec4f024411ecbcbf',
  // engine.energy.test.ts
  municipalFlat: '539f6adcec4f024411ec9565',
  winnsboroTiered: '539f6a45ec4f024411ec8d1d',
  scribnerSeasonal: '539f6a0aec4f024411ec8aa7',
  sceDailyTiers: '539f6a8fec4f024411ec914d',
  sullivanYearlyMin: '539f6a8fec4f024411ec9149',
  montanaDaily: '5925fea75457a30036de90e2',
};
type Key = keyof typeof IDS;
const LABELS = [...new Set(Object.values(IDS))];

interface Case {
  tariff: Key;
  body: { usage_kwh: number; month: number; demand_kw?: number; tax_rate_percent?: number; usage_profile?: { on_peak_kwh?: number; mid_peak_kwh?: number; off_peak_kwh?: number } };
  /** The hand-worked total of the engine test, when it states one; or the status when it is refused. */
  total?: number;
  status?: 422;
}

const profile = (on: number, off: number, mid?: number) => ({ on_peak_kwh: on, off_peak_kwh: off, ...(mid === undefined ? {} : { mid_peak_kwh: mid }) });

/** The cases of the hand-worked tests, as /calculate bodies (the cases on modified tariffs are not expressible). */
const CASES: Case[] = [
  // engine.tiers.test.ts
  { tariff: 'anTouB', body: { usage_kwh: 20_000, month: 7, usage_profile: profile(5000, 15_000) }, total: 1667.74 },
  { tariff: 'anTouBSingle', body: { usage_kwh: 20_000, month: 7, usage_profile: profile(5000, 15_000) }, total: 1660.49 },
  { tariff: 'anTouBSingle', body: { usage_kwh: 3000, month: 7, usage_profile: profile(1000, 2000) }, total: 328.66 },
  { tariff: 'unsSgs10Tou', body: { usage_kwh: 20_000, month: 7, usage_profile: profile(6000, 14_000) }, total: 2553.07 },
  { tariff: 'unsSgs10Tou', body: { usage_kwh: 500, month: 7, usage_profile: profile(100, 400) } },
  { tariff: 'anTouB', body: { usage_kwh: 20_000.001, month: 1 } },
  // engine.tou.test.ts
  { tariff: 'gsTod', body: { usage_kwh: 1000, month: 7, demand_kw: 10, usage_profile: profile(300, 700) }, total: 139.9 },
  { tariff: 'lgsTou', body: { usage_kwh: 38_000, month: 7, demand_kw: 100, usage_profile: profile(13_000, 20_000, 5000) }, total: 4134.99 },
  { tariff: 'gsTod', body: { usage_kwh: 1000, month: 7, demand_kw: 1, usage_profile: profile(300, 600) }, status: 422 },
  { tariff: 'gsTod', body: { usage_kwh: 1000, month: 7, demand_kw: 1, usage_profile: profile(300.005, 699.996) } },
  { tariff: 'gsTod', body: { usage_kwh: 1000, month: 7, demand_kw: 1, usage_profile: profile(300, 600, 100) }, status: 422 },
  { tariff: 'lgsTou', body: { usage_kwh: 30, month: 1, demand_kw: 1, usage_profile: profile(10, 10, 10) }, status: 422 },
  { tariff: 'flatEnergy', body: { usage_kwh: 100_000, month: 1, demand_kw: 0, usage_profile: profile(30_000, 70_000) } },
  { tariff: 'gsTod', body: { usage_kwh: 1000, month: 7, demand_kw: 0 } },
  // engine.demand.test.ts
  { tariff: 'facilityTiers', body: { usage_kwh: 1000, month: 7 }, status: 422 },
  { tariff: 'facilityTiers', body: { usage_kwh: 1_500_000, month: 7, demand_kw: 3000 }, total: 121_945 },
  { tariff: 'facilityTiers', body: { usage_kwh: 0, month: 1, demand_kw: 800 } },
  { tariff: 'facilityTiers', body: { usage_kwh: 0, month: 4, demand_kw: 1 } },
  { tariff: 'kwhPerKw', body: { usage_kwh: 30_000, month: 5, demand_kw: 100 }, total: 1587.92 },
  { tariff: 'touDemand', body: { usage_kwh: 100_000, month: 1, demand_kw: 1000 }, total: 14_217 },
  { tariff: 'touEnergyDemand', body: { usage_kwh: 10_000, month: 1, demand_kw: 200, usage_profile: profile(4000, 6000) }, total: 3786.76 },
  { tariff: 'coincident', body: { usage_kwh: 100_000, month: 7, demand_kw: 200 }, total: 10_069.44 },
  { tariff: 'coincident', body: { usage_kwh: 100_000, month: 1, demand_kw: 200 } },
  { tariff: 'coincident', body: { usage_kwh: 1000, month: 7 }, status: 422 },
  // engine.energy.test.ts
  { tariff: 'municipalFlat', body: { usage_kwh: 1000, month: 3 }, total: 110.86 },
  { tariff: 'municipalFlat', body: { usage_kwh: 50, month: 3 }, total: 6.99 },
  { tariff: 'municipalFlat', body: { usage_kwh: 1000, month: 3, tax_rate_percent: 8.875 }, total: 110.86 },
  { tariff: 'winnsboroTiered', body: { usage_kwh: 1000, month: 5 }, total: 87.4 },
  { tariff: 'winnsboroTiered', body: { usage_kwh: 60, month: 5 }, total: 7.23 },
  { tariff: 'scribnerSeasonal', body: { usage_kwh: 500, month: 7 }, total: 103.78 },
  { tariff: 'scribnerSeasonal', body: { usage_kwh: 500, month: 1 }, total: 90.51 },
  { tariff: 'scribnerSeasonal', body: { usage_kwh: 0, month: 7 }, total: 60 },
  { tariff: 'sceDailyTiers', body: { usage_kwh: 1000, month: 7 }, total: 206.68 },
  { tariff: 'sceDailyTiers', body: { usage_kwh: 500, month: 2 }, total: 69.41 },
  { tariff: 'montanaDaily', body: { usage_kwh: 500, month: 2 }, total: 34.98 },
  { tariff: 'montanaDaily', body: { usage_kwh: 500, month: 7 } },
  { tariff: 'sullivanYearlyMin', body: { usage_kwh: 10, month: 4 }, total: 4 },
  { tariff: 'sullivanYearlyMin', body: { usage_kwh: 100, month: 4 } },
];

/** The rate and classification fields of a tariff detail (GET /tariffs/{id}, POST /tariffs/custom). */
const RATE_FIELDS = [
  'name', 'sector', 'rate_type', 'has_tou', 'has_demand', 'has_net_metering', 'service_type', 'effective_date',
  'applicability', 'energy_rates', 'demand_rates', 'fixed_charges', 'riders', 'minimum_charge', 'utility_type', 'unit',
] as const;
const pick = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

describe('a URDB record re-created as a custom tariff prices the hand-worked cases as the catalog (issue 31)', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const catalog = new Map<string, Tariff>();
  const custom = new Map<string, { id: string; assumptions: string[]; detail: Record<string, unknown> }>();

  beforeAll(async () => {
    t = await createTestApp();
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
    for (const tariff of await seedTariffs(t.deps.database, LABELS)) catalog.set(tariff.id, tariff);
    const records = new Map(readUrdbLines(REFERENCE_DIR, new Set(LABELS)).map((l) => [l.record?.label, l.record]));
    for (const label of LABELS) {
      const record = records.get(label);
      if (!record) throw new Error(`record ${label} is not in the bundle`);
      const res = await as(t, alice).post('/tariffs/custom', { urdb: record });
      if (res.status !== 201) throw new Error(`POST /tariffs/custom ${label}: ${res.status} ${JSON.stringify(res.body)}`);
      custom.set(label, { id: res.body.id, assumptions: res.body.versions[0].assumptions, detail: res.body });
    }
  });
  afterAll(() => t.stop());

  const calc = (token: string, body: unknown) => request(t.app).post('/api/v1/calculate').set('Authorization', `Bearer ${token}`).send(body as object);

  it('creates one custom tariff per record, with the catalog tariff\'s rates and classification', async () => {
    expect(LABELS).toHaveLength(16);
    expect(custom.size).toBe(16);
    for (const label of LABELS) {
      const c = custom.get(label)!;
      expect(c.id).toMatch(/^ct_[0-9a-f]{32}$/);
      expect(c.detail).toMatchObject({ custom: true, source_url: catalog.get(label)!.sourceUrl });
      const shown = (await as(t, alice).get(`/tariffs/${label}`).expect(200)).body;
      expect({ label, ...pick(c.detail, RATE_FIELDS) }).toEqual({ label, ...pick(shown, RATE_FIELDS) });
    }
  });

  it('covers every case of the hand-worked tests that the API can express', () => {
    expect(CASES).toHaveLength(38);
    expect(new Set(CASES.map((c) => c.tariff)).size).toBe(Object.keys(IDS).length);
  });

  it.each(CASES.map((c, i) => [i + 1, c.tariff, c] as const))('case %i (%s): the custom tariff prices as the catalog', async (_n, key, c) => {
    const label = IDS[key];
    const own = custom.get(label)!;
    const fromCatalog = await calc(alice, { tariff_id: label, ...c.body });
    const fromCustom = await calc(alice, { tariff_id: own.id, ...c.body });
    expect(fromCustom.status).toBe(fromCatalog.status);
    if (c.status) {
      expect(fromCatalog.status).toBe(c.status);
      // A refusal may name the tariff: the same words, each with its own id.
      expect(JSON.stringify(fromCustom.body).split(own.id).join(label)).toBe(JSON.stringify(fromCatalog.body));
      return;
    }
    expect(fromCatalog.status).toBe(200);
    const a = fromCatalog.body;
    const b = fromCustom.body;
    expect(a.tariff_id).toBe(label);
    expect(b.tariff_id).toBe(own.id);
    if (c.total !== undefined) expect(a.total_cost).toBe(c.total);
    expect(a.line_items.length).toBeGreaterThan(0);
    expect(b.line_items).toEqual(a.line_items);
    expect(b.total_cost).toBe(a.total_cost);
    expect(b.summary).toEqual(a.summary);
    const { tariff_id: _a, assumptions: assumedA, ...restA } = a;
    const { tariff_id: _b, assumptions: assumedB, ...restB } = b;
    expect(restB).toEqual(restA);
    // Assumptions: every one of the catalog's, its data age and class included (the version keeps the record's
    // end date and classification note); the custom tariff adds only its version's notes.
    expect(assumedB).toEqual(expect.arrayContaining(assumedA as string[]));
    const allowed = new Set([...(assumedA as string[]), ...own.assumptions]);
    expect((assumedB as string[]).filter((s) => !allowed.has(s))).toEqual([]);
  });

  it('is its owner\'s only: another account gets 404 for the custom id', async () => {
    for (const label of [IDS.anTouB, IDS.coincident]) {
      const id = custom.get(label)!.id;
      await calc(bob, { tariff_id: id, usage_kwh: 1000, month: 7, demand_kw: 200 }).expect(404, { detail: 'Tariff not found' });
      await as(t, bob).get(`/tariffs/${id}`).expect(404, { detail: 'Tariff not found' });
      // The catalog record stays everyone's.
      await calc(bob, { tariff_id: label, usage_kwh: 1000, month: 7, demand_kw: 200 }).expect(200);
    }
  });
});
