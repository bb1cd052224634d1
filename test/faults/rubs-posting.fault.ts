/**
 * Fault test of posting a calculation to the PMS ledger (issue 30, item 6): the real worker entry
 * point in its own process, on PostgreSQL and Redis servers the test starts itself, SIGKILLed in
 * the middle of posting 500 charges, then started again. Run by `npm run test:faults`.
 */
import crypto from 'node:crypto';
import { spawnRole } from '../multiprocess/processes';
import { FakePmsLedger } from '../helpers/fake-pms-ledger';
import { fakeUnit } from '../helpers/fake-pms';
import { waitUntil } from '../helpers/eventually';
import { missingServices, startPostgres, startRedis, type ThrowawayPostgres, type ThrowawayRedis } from './services';
import { call, roleEnv, signUp, startWeb } from './stream';
import { linkThroughProvider } from '../helpers/pms-link';

const UNITS = 500;
/** The worker is killed once the provider has created this many charges. */
const KILL_AT = 150;
/** Charges in flight per job (posting/service.ts): at most these were sent and not recorded when the worker died. */
const IN_FLIGHT = 10;

const missing = missingServices();
if (missing && process.env.FAULTS_REQUIRED) throw new Error(`The RUBS posting fault test cannot run: ${missing}`);
if (missing) console.warn(`Skipping the RUBS posting fault test: ${missing}`);
const describeFaults = missing ? describe.skip : describe;

interface Posting {
  status: string;
  posted: number;
  pending: number;
  failed: number;
  lines: Array<{ unit_id: string; action: string; status: string; provider_charge_id: string | null; attempts: number }>;
}

describeFaults('RUBS posting under faults (500 charges)', () => {
  let pg: ThrowawayPostgres;
  let redis: ThrowawayRedis;
  const fake = new FakePmsLedger();
  let providerUrl: string;

  beforeAll(async () => {
    [pg, redis, providerUrl] = await Promise.all([startPostgres(), startRedis(), fake.start()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled([pg?.destroy(), redis?.destroy(), fake.stop()]);
  });

  it('a worker SIGKILLed mid-run and started again: every line posted, no charge created twice, no posted line sent again', async () => {
    const databaseUrl = await pg.createDatabase(`posting_${crypto.randomBytes(3).toString('hex')}`);
    const env = {
      ...roleEnv(databaseUrl, redis.url, 'posting1:'),
      PMS_API_URL: providerUrl,
      PMS_API_KEY: 'fault-ledger-key',
      PMS_API_TIMEOUT_MS: '5000',
    };
    const web = await startWeb(env);
    let worker = spawnRole('worker', env);
    try {
      await worker.ready;
      const api = `${web.url}/api/v1`;
      const auth = await signUp(web, 'posting');

      // A property of 500 occupied units in the PMS, linked (the worker imports them), and its calculation from the PMS.
      fake.setUnits(
        'post-c0',
        'P0',
        Array.from({ length: UNITS }, (_, i) =>
          fakeUnit(i + 1, 'P0', {
            status: 'occupied',
            current_lease: { resident_name: `Resident ${i + 1}`, occupant_count: 1, start_date: '2025-01-01', end_date: null },
          }),
        ),
      );
      const property = await call<{ id: string }>(
        `${api}/pm/properties`,
        'POST',
        {
          name: 'Fault Towers',
          address: '1 Main St',
          city: 'Gladstone',
          state: 'MI',
          zip_code: '49837',
          property_type: 'residential',
          unit_count: UNITS,
        },
        auth,
      );
      await linkThroughProvider((method, path, body) => call(`${web.url}${path}`, method, body, auth), fake, property.id, {
        connection_id: 'post-c0',
        pms_property_id: 'P0',
      });
      await waitUntil(
        'units imported',
        async () =>
          (await call<{ last_synced_at: string | null }>(`${api}/pm/properties/${property.id}/pms`, 'GET', undefined, auth))
            .last_synced_at !== null,
        60_000,
      );
      const config = await call<{ id: string }>(
        `${api}/billing/config`,
        'POST',
        { property_id: property.id, method: 'sqft', utility_types: ['water'], admin_fee_percent: 5 },
        auth,
      );
      const calculation = await call<{ id: string; unit_bills: unknown[] }>(
        `${api}/billing/calculate-from-pms`,
        'POST',
        {
          property_id: property.id,
          billing_config_id: config.id,
          billing_period_start: '2026-03-01',
          billing_period_end: '2026-03-31',
          total_amount: 48_250.37,
          utility_type: 'water',
        },
        auth,
      );
      expect(calculation.unit_bills).toHaveLength(UNITS);
      const id = calculation.id;
      const ownCharges = () => [...fake.charges.keys()].filter((k) => k.startsWith(`${id}:`)).length;

      // 50 ms per charge, 10 at a time: about 2.5 s for the 500, so the kill lands in the middle.
      fake.latencyMs = 50;
      const accepted = await call<Posting>(`${api}/billing/calculations/${id}/post`, 'POST', undefined, auth);
      expect(accepted).toMatchObject({ status: 'pending', pending: UNITS });
      await waitUntil('charges created before the kill', async () => ownCharges() >= KILL_AT, 60_000, 5);
      await worker.kill();
      const createdAtKill = ownCharges();
      expect(createdAtKill).toBeLessThan(UNITS);

      worker = spawnRole('worker', env);
      await worker.ready;
      let posting: Posting | undefined;
      let sweeps = 0;
      // The stalled job comes back once its lock expires (30 s); the scheduler's sweep would queue it again after a minute.
      await waitUntil(
        'every line posted after the restart',
        async () => {
          sweeps += 1;
          if (sweeps % 20 === 0)
            await web.deps.queue.enqueue('webhook-sweep', { older_than_ms: 10_000 }, { jobId: `posting-sweep-${sweeps}` });
          posting = (await call<{ posting: Posting }>(`${api}/billing/calculations/${id}`, 'GET', undefined, auth)).posting;
          return posting.status === 'posted';
        },
        240_000,
        250,
      );

      expect(posting).toMatchObject({ posted: UNITS, pending: 0, failed: 0 });
      // Each line's charge was created once, under its own key, and is the one the line records.
      const keys = [...fake.charges.keys()].filter((k) => k.startsWith(`${id}:`));
      expect(keys).toHaveLength(UNITS);
      expect(fake.duplicates()).toEqual([]);
      for (const line of posting!.lines) {
        expect(line.provider_charge_id).toBe(fake.charges.get(`${id}:${line.unit_id}:0:post`)!.id);
      }
      // Only the charges in flight when the worker died were sent again (and answered with the charge already created).
      const resent = keys.filter((k) => fake.callsFor(k) > 1);
      expect(resent.length).toBeLessThanOrEqual(IN_FLIGHT);
      expect(resent.every((k) => fake.callsFor(k) === 2)).toBe(true);
      console.log(
        `[rubs-posting fault] killed at ${createdAtKill} charges; ${resent.length} sent again after the restart; ${keys.length} charges, 0 duplicates`,
      );
    } finally {
      await worker.stop();
      await web.stop();
    }
  }, 300_000);
});
