import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createProperty, GLADSTONE } from './helpers';
import { bundledLoadShapes } from '../../src/modules/pricing/load-shapes';
import { engineMonthlyBill, type MonthlyBillTotal } from '../../src/modules/properties/energy-cost';
import { createPropertyService } from '../../src/modules/properties/service';
import { createTariffCatalog } from '../../src/modules/properties/tariff-catalog';
import { createRateAnalysisService } from '../../src/modules/rate-analysis/service';
import { bundledAverageRates } from '../../src/modules/analytics/average-rates';

/** A proxy of `target` that counts calls of each of its methods (by name); the calls go through unchanged. */
function counted<T extends object>(target: T): { proxy: T; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const proxy = new Proxy(target, {
    get(obj, key, receiver) {
      const value: unknown = Reflect.get(obj, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        calls[key] = (calls[key] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
  return { proxy, calls };
}

/**
 * An owner's rate-analysis job (the one queued after a tariff re-import) does its work once per
 * property: the current tariff is priced once (the stored estimate and the analysis share it), the
 * owner's rows are read in one statement (not re-read by id), and the job reads each tariff once.
 * The services are built as src/modules/properties/compose.ts builds them, on the real test
 * database, with counting wrappers around the bill engine, the property service and the tariff
 * catalog; the property and rate-analysis services share the one engine, as they do in the app.
 */
describe("an owner's rate-analysis job: work per property (issue: double pricing and re-reads)", () => {
  const N = 5;
  // K = 2 other current tariffs of the utility: SP1, which the C1 properties below may take, and C3 (three-phase only),
  // which the single-phase C1 customers may not: an excluded tariff is read with the candidates but never priced.
  const CANDIDATES = [GLADSTONE.SP1, GLADSTONE.C3_NON_CITY];
  let t: TestApp;

  beforeAll(async () => {
    // No job processors: the analyses queued when the properties are created never run, so the
    // only analyses stored are the job's below.
    t = await createTestApp();
    await seedTariffs(t.deps.database, [GLADSTONE.C1, ...CANDIDATES]);
  });
  afterAll(() => t.stop());

  it(`prices each current tariff once (${N} pricings for ${N} properties) and reads the owner's rows once (not ${N} times by id)`, async () => {
    const owner = await registerUser(t);
    for (let i = 0; i < N; i++) {
      // Issue 45 replaced 1,000 x (i + 1) kWh: SP1 is open from 15,000 kWh a month, so 15,000 x (i + 1) kWh.
      await createProperty(t, owner.token, { name: `Shop ${i}`, tariff_id: GLADSTONE.C1, monthly_usage_kwh: 15000 * (i + 1) });
    }
    // Another owner's property in the same area: not the job's.
    await createProperty(t, (await registerUser(t)).token, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 500 });
    const ownerId = (await as(t, owner.token).get('/auth/me').expect(200)).body.id as string;

    const db = t.deps.database.db;
    const engine = engineMonthlyBill(bundledLoadShapes());
    // One pricing = one estimate = the engine's bills for months 1 to 12: count the month-1 bills per tariff.
    const pricings: Record<string, number> = {};
    const monthlyBill: MonthlyBillTotal = (tariff, input) => {
      if (input.month === 1) pricings[tariff.id] = (pricings[tariff.id] ?? 0) + 1;
      return engine(tariff, input);
    };
    const tariffs = counted(createTariffCatalog(db, t.deps.now, t.services.customTariffs));
    const properties = counted(
      createPropertyService({
        db,
        now: t.deps.now,
        logger: t.deps.logger,
        tariffs: tariffs.proxy,
        monthlyBill,
        portfolios: t.services.portfolios,
        requestAnalysis: async () => undefined,
      }),
    );
    const rateAnalysis = createRateAnalysisService({
      db,
      now: t.deps.now,
      logger: t.deps.logger,
      tariffs: tariffs.proxy,
      monthlyBill,
      properties: properties.proxy,
      notifications: t.services.notifications,
      enqueue: async () => undefined,
      pricing: t.services.pricing,
      loadShapes: () => bundledLoadShapes(),
      averageRates: bundledAverageRates,
    });

    await rateAnalysis.process({ user_id: ownerId });

    // The job did the work: every property of the owner analysed against C1, nothing else.
    const stored = await rateAnalysis.latestForOwner(ownerId);
    expect(stored).toHaveLength(N);
    // At U kWh, C1 = U x 0.1217 + 13.54 and SP1 = U x 0.1016 + 18.54: SP1 saves U x 0.0201 - 5.00 a month
    // (15,000: 296.50; 30,000: 598.00; 45,000: 899.50; 60,000: 1,201.00; 75,000: 1,502.50).
    expect(
      stored.map((a) => [a.currentTariffId, a.recommendedTariffId, a.monthlySavings]).sort((x, y) => Number(x[2]) - Number(y[2])),
    ).toEqual([296.5, 598, 899.5, 1201, 1502.5].map((saving) => [GLADSTONE.C1, GLADSTONE.SP1, saving]));

    // Each tariff priced once per property: the current tariff N times, each candidate the property may take N times.
    // (The old job priced the current tariff 3N times: for the stored estimate, again as the analysis's
    // current tariff, and once more among the area's tariffs.) Issue 45: C3, excluded (three-phase only), is never priced.
    expect(pricings).toEqual({ [GLADSTONE.C1]: N, [GLADSTONE.SP1]: N });
    // Property rows: one read of the owner's rows, no per-id read (the old job listed the owner's ids,
    // then re-read each row by id); each row's cost columns derived in memory; one batched write.
    expect(properties.calls).toEqual({ rowsOfOwner: 1, withEstimate: N, storeEstimates: 1 });
    // Tariff reads cached for the job: the current tariff and its utility's candidates read once.
    // Issue 31: the owner's own tariffs of that utility are read with the candidates, once.
    expect(tariffs.calls).toEqual({ findTariffById: 1, currentTariffsOf: 1, customAlternatives: 1 });
  });
});
