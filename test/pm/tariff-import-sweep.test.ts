import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { writeSystemState } from '../../src/platform/db/system-state';
import { REFERENCE_IMPORT_KEY } from '../../src/modules/tariffs/importer';
import { appSchedules } from '../../src/schedules';
import { runScheduleTick } from '../../src/platform/scheduler';
import { as, createProperty, GLADSTONE } from './helpers';

describe('re-analysis after a tariff re-import', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
    await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.SP1]);
  });
  afterAll(() => t.stop());

  it('queues one re-analysis per owner once per import stamp, then nothing until the next import', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    await registerUser(t); // an owner without properties is not queued
    // Issue 45 replaced 10,000 kWh (below SP1's 15,000 kWh minimum) and bob's SP1 at 500 kWh: 20,000 kWh each.
    const p = await createProperty(t, alice.token, { tariff_id: GLADSTONE.C1, monthly_usage_kwh: 20000 });
    await createProperty(t, bob.token, { tariff_id: GLADSTONE.SP1, monthly_usage_kwh: 20000 });

    await writeSystemState(t.deps.database.db, REFERENCE_IMPORT_KEY, '{}', new Date('2026-11-01T00:00:00Z'));
    expect(await t.services.rateAnalysis.sweepAfterTariffImport()).toBe(2);
    expect(await t.services.rateAnalysis.sweepAfterTariffImport()).toBe(0);

    // The queued user job analyses alice's property: C1 20,000 x 0.1217 + 13.54 = 2,447.54; SP1 20,000 x 0.1016 + 18.54
    // = 2,050.54; SP1 saves 2,447.54 - 2,050.54 = 397.00 a month, 4,764.00 a year.
    await eventually(async () => {
      const stored = await t.services.rateAnalysis.latestForProperty(p.id);
      expect(stored).toMatchObject({ recommendedTariffId: GLADSTONE.SP1, monthlySavings: 397, annualSavings: 4764 });
    });
    // The job stores the analyses, then writes their notifications: wait for those too.
    await eventually(async () => {
      const notes = await as(t, alice.token).get('/pm/notifications').expect(200);
      expect(notes.body.items.some((n: { property_id: string }) => n.property_id === p.id)).toBe(true);
    });

    await writeSystemState(t.deps.database.db, REFERENCE_IMPORT_KEY, '{}', new Date('2026-11-02T00:00:00Z'));
    expect(await t.services.rateAnalysis.sweepAfterTariffImport()).toBe(2);
  });

  it('is driven by a scheduled tick that only enqueues the sweep', async () => {
    const schedule = appSchedules.find((s) => s.name === 'tariff-import-sweep')!;
    expect(schedule.queue).toBe('tariff-import-sweep');
    const tick = new Date('2026-11-22T03:05:00Z');
    const first = await runScheduleTick(t.deps.queue, schedule, tick);
    const second = await runScheduleTick(t.deps.queue, schedule, tick);
    expect(first.deduplicated).toBe(false);
    expect(second.deduplicated).toBe(true);
  });
});
