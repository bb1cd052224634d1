/**
 * Issue 49, what a refresh reaches and what follows it: the ZIP codes due diligence was asked for
 * are among the deployment's utilities; `npm run data:refresh` (its command, on the services) queues
 * the same recompute as the admin endpoint; each account is told which properties' advice changed.
 * Against the local stand-in of the OpenEI utility_rates API (no internet).
 */
import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { seedTariffs } from '../helpers/tariffs';
import { registerUser, setTier, type RegisteredTestUser } from '../helpers/users';
import { recordedRecords, startUrdbStandIn, type StandIn } from '../helpers/urdb-stand-in';
import { as, createProperty } from '../pm/helpers';
import { refreshCommand } from '../../scripts/refresh-command';
import { rowsOf } from '../../src/platform/db/errors';

/** Connecticut Light & Power (EIA 4176), as in refresh.test.ts; Hartford's ZIP 06106 is one of its. */
const CLP = '4176';
const HARTFORD = '06106';
/** "Rate 1 - Residential Electric Service" of 2017 ($0.11491 + $0.05676 a kWh, $19.25 a month), and its 2022 revision. */
const RATE1_2017 = '5982002d5457a3ac198bbc44';
const RATE1_2022 = '62fe87aff6dee418ab7bfcf9';
const ADMIN = 'admin-token-0123456789';

jest.setTimeout(240_000);

describe('after a refresh (issue 49)', () => {
  let api: StandIn;
  let t: TestApp;
  let owner: RegisteredTestUser;
  let clock = new Date('2026-11-28T12:00:00Z');
  const admin = (req: request.Test) => req.set('X-Admin-Token', ADMIN);

  beforeAll(async () => {
    // URDB as the stand-in answers it here: Rate 1 of 2022 at $0.10 + $0.02 adjustment a kWh, open to residences only.
    const records = recordedRecords(Number(CLP), { newer: true }).map((r) =>
      r.label === RATE1_2022
        ? { ...r, energyratestructure: [[{ unit: 'kWh', rate: 0.1, adj: 0.02 }]], description: 'AVAILABLE for single-family residences.' }
        : r,
    );
    api = await startUrdbStandIn(new Map([[CLP, records]]));
    t = await createTestApp({
      jobs: true,
      now: () => clock,
      env: { ADMIN_TOKEN: ADMIN, URDB_API_KEY: 'test-key', URDB_API_URL: api.url, URDB_API_BACKOFF_MS: '0' },
    });
    await seedTariffs(
      t.deps.database,
      recordedRecords(Number(CLP), { newer: false }).map((r) => r.label as string),
    );
    owner = await registerUser(t);
    await setTier(t, owner.user.id, 'pro');
  });
  afterAll(async () => {
    await t.stop();
    await api.close();
  });

  it("a ZIP code asked for in due diligence makes its utilities the deployment's, with the last time", async () => {
    const none = await admin(request(t.app).post('/api/v1/admin/tariffs/refresh')).send({}).expect(422);
    expect(none.body.detail).toMatch(/No utility to refresh/);
    await as(t, owner.token)
      .post('/pm/due-diligence', { address: '1 Main St', city: 'Hartford', state: 'CT', zip_code: HARTFORD, unit_count: 4 })
      .expect(200);
    const stored = rowsOf<{ owner_id: string; zip_code: string; last_used_at: Date | string }>(
      await t.deps.database.db.execute(sql`select owner_id, zip_code, last_used_at from due_diligence_zip_codes`),
    );
    expect(stored.map((r) => [r.owner_id, r.zip_code, new Date(r.last_used_at).toISOString()])).toEqual([
      [owner.user.id, HARTFORD, clock.toISOString()],
    ]);
    // The deployment's utilities now: those serving the ZIP code (the run is recorded, not run).
    expect((await t.services.tariffRefresh.create({})).utilities).toEqual([CLP]);
  });

  it("npm run data:refresh queues the re-analysis; the owner is told which properties' advice changed", async () => {
    const home = await createProperty(t, owner.token, {
      name: 'Asylum Hill Flats',
      city: 'Hartford',
      state: 'CT',
      zip_code: HARTFORD,
      property_type: 'residential',
      tariff_id: RATE1_2017,
      monthly_usage_kwh: 1000,
    });
    const before = (await as(t, owner.token).post(`/pm/properties/${home.id}/analyze-rates`).expect(200)).body;
    clock = new Date('2026-11-28T13:00:00Z');
    const out: string[] = [];
    const code = await refreshCommand(t.services, { eia: [CLP] }, { write: (s: string) => out.push(s) }, api.url);
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/status: +succeeded/);
    if (t.deps.queue.driver === 'inprocess') await t.deps.queue.drain();
    // Before: nothing but Rate 1 of 2017 to compare, 1000 x (0.11491 + 0.05676) + 19.25 = 190.92: stay.
    expect(before.recommendation).toBe(RATE1_2017);
    // After, re-analysed by the queued job (at 13:00): Rate 1 of 2022, 1000 x (0.10 + 0.02) + 9.62 = 129.62, saves 61.30.
    // With Redis the queued analysis runs on the test app's worker after the command returns: wait for it.
    await eventually(async () => {
      const after = (await t.services.rateAnalysis.latestForProperty(home.id))!;
      expect(after.analyzedAt.toISOString()).toBe('2026-11-28T13:00:00.000Z');
      expect(after.result.recommendation).toBe(RATE1_2022);
      expect(after.monthlySavings).toBe(61.3);
      const notes = (await as(t, owner.token).get('/pm/notifications').expect(200)).body.items as Array<Record<string, unknown>>;
      expect(notes.filter((n) => n.type === 'tariff_refresh_advice')).toEqual([
        expect.objectContaining({
          property_id: home.id,
          message:
            'The tariff catalog was refreshed from URDB and the rate advice changed for 1 property: Asylum Hill Flats: ' +
            'now move to Rate 1 - Residential Electric Service (was: stay on Rate 1 - Residential Electric Service)',
        }),
      ]);
    }, 60_000);
  });
});
