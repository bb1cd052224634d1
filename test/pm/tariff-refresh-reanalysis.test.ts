/**
 * Issue 49, after a refresh: a run that changed tariffs queues the re-analysis of every owner's
 * properties on the new rates (then their analytics and the audit of their bills), as a re-import
 * does. The stand-in URDB API publishes City of Gladstone's C1 at a new price.
 */
import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { recordedRecords, startUrdbStandIn, type StandIn } from '../helpers/urdb-stand-in';
import { createProperty, GLADSTONE } from './helpers';

const GLADSTONE_EIA = '7265';

// A run loads the utility reference files: minutes on a busy machine.
jest.setTimeout(240_000);

describe('re-analysis after a catalog refresh', () => {
  let api: StandIn;
  let t: TestApp;

  beforeAll(async () => {
    // Gladstone's records as bundled, but C1 at $0.15 a kWh instead of $0.1217.
    const records = recordedRecords(Number(GLADSTONE_EIA), { newer: false }).map((r) =>
      r.label === GLADSTONE.C1 ? { ...r, energyratestructure: [[{ rate: 0.15, unit: 'kWh' }]] } : r,
    );
    api = await startUrdbStandIn(new Map([[GLADSTONE_EIA, records]]));
    t = await createTestApp({ jobs: true, env: { URDB_API_KEY: 'test-key', URDB_API_URL: api.url, URDB_API_BACKOFF_MS: '0' } });
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.SP1]);
  });
  afterAll(async () => {
    await t.stop();
    await api.close();
  });

  it("the owner's property is analysed again on the refreshed rates", async () => {
    const alice = await registerUser(t);
    const p = await createProperty(t, alice.token, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 20000 });
    // C1 20,000 x 0.1217 + 13.54 = 2,447.54; SP1 20,000 x 0.1016 + 18.54 = 2,050.54: 397.00 a month.
    await eventually(async () => {
      expect(await t.services.rateAnalysis.latestForProperty(p.id)).toMatchObject({
        recommendedTariffId: GLADSTONE.SP1,
        monthlySavings: 397,
      });
    }, 120_000);

    // The deployment's utilities: Gladstone, through the property's tariff and ZIP code.
    const refresh = t.services.tariffRefresh;
    const created = await refresh.create({});
    expect(created.utilities).toEqual([GLADSTONE_EIA]);
    const run = await refresh.run(created.id);
    expect(run.report.changed).toEqual([GLADSTONE.C1]);

    // C1 20,000 x 0.15 + 13.54 = 3,013.54; SP1 2,050.54: 963.00 a month, 11,556.00 a year.
    await eventually(async () => {
      expect(await t.services.rateAnalysis.latestForProperty(p.id)).toMatchObject({
        recommendedTariffId: GLADSTONE.SP1,
        monthlySavings: 963,
        annualSavings: 11556,
      });
    }, 120_000);
  });
});
