/**
 * Fault test of the bill audit (issue 32, item 5): the real worker entry point in its own process,
 * on PostgreSQL and Redis servers the test starts itself, SIGKILLed in the middle of re-auditing
 * 800 meters after a tariff version is added, then started again. Run by `npm run test:faults`.
 */
import crypto from 'node:crypto';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { queuePrefix } from '../../src/platform/queue';
import { bullQueues } from '../helpers/bull';
import { spawnRole } from '../multiprocess/processes';
import { waitUntil } from '../helpers/eventually';
import { missingServices, startPostgres, startRedis, type ThrowawayPostgres, type ThrowawayRedis } from './services';
import { call, roleEnv, signUp, startWeb } from './stream';
import { allYear } from '../fixtures/rates-tariff';

const PROPERTIES = 80;
const METERS_PER_PROPERTY = 10;
const METERS = PROPERTIES * METERS_PER_PROPERTY;
/** The worker is killed once this many meters were audited again. */
const KILL_AT = METERS / 4;

const missing = missingServices();
if (missing && process.env.FAULTS_REQUIRED) throw new Error(`The bill audit fault test cannot run: ${missing}`);
if (missing) console.warn(`Skipping the bill audit fault test: ${missing}`);
const describeFaults = missing ? describe.skip : describe;

/** 900 kWh in a calendar month: 500 x first + 400 x second + fixed. */
const rates = (first: number, second: number, fixed: number) => ({
  energy_rates: [
    { ...allYear, tier: 1, tier_max: 500, rate_per_unit: first },
    { ...allYear, tier: 2, tier_max: null, rate_per_unit: second },
  ],
  fixed_charges: [{ name: 'Customer charge', amount: fixed, frequency: 'monthly' }],
});

const MONTHS = Array.from({ length: 12 }, (_, k) => {
  const month = String(k + 1).padStart(2, '0');
  const last = new Date(Date.UTC(2025, k + 1, 0)).getUTCDate();
  return [`2025-${month}-01`, `2025-${month}-${last}`] as const;
});

describeFaults('bill audit under faults (800 meters re-audited)', () => {
  let pg: ThrowawayPostgres;
  let redis: ThrowawayRedis;

  beforeAll(async () => {
    [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled([pg?.destroy(), redis?.destroy()]);
  });

  it('a worker SIGKILLed mid re-audit and started again: every meter audited on the new rates, each bill once, no finding left from the old rates', async () => {
    const databaseUrl = await pg.createDatabase(`audit_${crypto.randomBytes(3).toString('hex')}`);
    const env = roleEnv(databaseUrl, redis.url, 'audit1:');
    const web = await startWeb(env);
    let worker = spawnRole('worker', env);
    const db = new Client({ connectionString: databaseUrl });
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const auditQueue = bullQueues(connection, queuePrefix('audit1:')).get('bill-audit')!;
    const auditJobsLeft = async () =>
      Object.values(await auditQueue.getJobCounts('active', 'waiting', 'delayed', 'prioritized')).reduce((a, b) => a + b, 0);
    try {
      await Promise.all([worker.ready, db.connect()]);
      const api = `${web.url}/api/v1`;
      const auth = await signUp(web, 'audit');

      // The owner's tariff: 900 kWh cost $123.00 a month (55 + 56 + 12); every bill says $133.00,
      // and one bill per meter $146.30.
      const tariff = await call<{ id: string }>(
        `${api}/tariffs/custom`,
        'POST',
        {
          name: 'Fault general service',
          utility_name: 'Fault Electric',
          state: 'MI',
          sector: 'commercial',
          utility_type: 'electric',
          unit: 'kWh',
          effective_date: '2020-01-01',
          ...rates(0.11, 0.14, 12),
        },
        auth,
      );
      for (let p = 0; p < PROPERTIES; p++) {
        const property = await call<{ id: string }>(
          `${api}/pm/properties`,
          'POST',
          {
            name: `Audit ${p}`,
            address: `${p} Main St`,
            city: 'Gladstone',
            state: 'MI',
            zip_code: '49837',
            property_type: 'commercial',
            tariff_id: tariff.id,
          },
          auth,
        );
        const rows = ['account_number,period_start,period_end,amount,usage,unit'];
        for (let m = 0; m < METERS_PER_PROPERTY; m++) {
          await call(
            `${api}/pm/properties/${property.id}/meters`,
            'POST',
            { utility_type: 'electric', name: `Meter ${m}`, account_number: `A-${p}-${m}` },
            auth,
          );
          MONTHS.forEach(([start, end], k) => rows.push(`A-${p}-${m},${start},${end},${k === m ? '146.30' : '133.00'},900,kWh`));
        }
        const form = new FormData();
        form.append('file', new Blob([`${rows.join('\n')}\n`], { type: 'text/csv' }), 'bills.csv');
        const res = await fetch(`${api}/pm/properties/${property.id}/bills/import`, { method: 'POST', body: form, headers: auth });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ imported: METERS_PER_PROPERTY * 12 });
      }
      const priceVariances = async () =>
        Number(
          (await db.query<{ n: string }>("select count(*) as n from audit_findings where reason = 'price_variance' and status = 'open'"))
            .rows[0].n,
        );
      // On the first rates every bill is $10.00 over.
      await waitUntil('every bill audited on the first rates', async () => (await priceVariances()) === METERS * 12, 120_000, 100);
      await waitUntil('no audit left from the set-up', async () => (await auditJobsLeft()) === 0, 60_000, 100);

      const since = (await db.query<{ now: string }>('select now()::text as now')).rows[0].now;
      const reAudited = async () =>
        Number((await db.query<{ n: string }>('select count(*) as n from meter_audits where read_at > $1', [since])).rows[0].n);
      // The new rates: 900 kWh cost $133.00 (60 + 60 + 13).
      await call(`${api}/tariffs/custom/${tariff.id}/versions`, 'POST', { effective_date: '2024-01-01', ...rates(0.12, 0.15, 13) }, auth);
      await waitUntil('meters audited again before the kill', async () => (await reAudited()) >= KILL_AT, 60_000, 5);
      await worker.kill();
      const atKill = await reAudited();
      expect(atKill).toBeLessThan(METERS);

      worker = spawnRole('worker', env);
      await worker.ready;
      // The stalled jobs come back once their locks expire (30 s).
      await waitUntil('every meter audited again after the restart', async () => (await reAudited()) === METERS, 180_000, 250);

      // One audit per bill; on the new rates only the wrong bill of each meter is a price variance, of +$13.30 (+10 %).
      const audits = await db.query<{ n: string; ok: string }>(
        "select count(*) as n, count(*) filter (where status = 'ok') as ok from bill_audits",
      );
      expect(audits.rows[0]).toEqual({ n: String(METERS * 12), ok: String(METERS * 11) });
      const variances = await db.query<{ amount_cents: string; n: string }>(
        "select amount_cents, count(*) as n from audit_findings where reason = 'price_variance' group by amount_cents",
      );
      expect(variances.rows).toEqual([{ amount_cents: '1330', n: String(METERS) }]);
      const perMeter = await db.query<{ n: string }>(
        "select count(*) as n from audit_findings where reason = 'price_variance' group by meter_id having count(*) <> 1",
      );
      expect(perMeter.rows).toEqual([]);
      console.log(
        `[bill-audit fault] killed with ${atKill} of ${METERS} meters audited again; all ${METERS} on the new rates after the restart`,
      );
    } finally {
      await db.end().catch(() => undefined);
      await auditQueue.close();
      connection.disconnect();
      await worker.stop();
      await web.stop();
    }
  }, 400_000);
});
