import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { eventually } from './helpers/eventually';
import { runScheduleTick } from '../src/platform/scheduler';
import { appSchedules } from '../src/schedules';

const embedded = !process.env.DATABASE_URL;

describe('db-maintenance (embedded PGlite has no autovacuum)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
  });
  afterAll(() => t.stop());

  const lastRuns = async () => {
    const res = (await t.deps.database.db.execute(
      sql`select last_analyze, last_vacuum from pg_stat_user_tables where relname = 'properties'`,
    )) as unknown as { rows: Array<{ last_analyze: unknown; last_vacuum: unknown }> };
    return res.rows[0];
  };

  it('the schedules enqueue ANALYZE hourly and VACUUM (ANALYZE) nightly, and the job runs them on the embedded database only', async () => {
    const analyze = appSchedules.find((s) => s.name === 'db-analyze')!;
    const vacuum = appSchedules.find((s) => s.name === 'db-vacuum')!;
    expect([analyze.cron, vacuum.cron]).toEqual(['17 * * * *', '41 3 * * *']);
    expect(await runScheduleTick(t.deps.queue, analyze, new Date('2026-11-23T10:17:00Z')))
      .toEqual({ jobId: 'db-analyze@20261123T1017Z', deduplicated: false });
    await runScheduleTick(t.deps.queue, vacuum, new Date('2026-11-23T03:41:00Z'));
    if (embedded) {
      await eventually(async () => {
        const runs = await lastRuns();
        expect(runs.last_analyze).not.toBeNull();
        expect(runs.last_vacuum).not.toBeNull();
      });
    }
    expect(await t.services.maintenance.run({ vacuum: false })).toBe(embedded ? 'analyze' : 'not_needed');
    expect(await t.services.maintenance.run({ vacuum: true })).toBe(embedded ? 'vacuum_analyze' : 'not_needed');
  });
});
