/**
 * Issue 49: the catalog refresh from the URDB API, against a local stand-in of the OpenEI
 * utility_rates API answering from recorded records (the bundled ones and the newer ones in
 * data/reference), with pages, a 429, a 503, a time-out and malformed records. No test reaches the
 * internet. Done when: a refreshed utility's past bill still prices on its old version while a new
 * bill prices on the new one (tariffs README, "Refresh from the URDB API", worked example).
 */
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import { eventually } from '../helpers/eventually';
import { recordedRecords, startUrdbStandIn, type StandIn } from '../helpers/urdb-stand-in';

/** Connecticut Light & Power (EIA 4176): 14 bundled records and, in the 2021-2025 file, Rate 1 of 2022. */
const CLP = '4176';
/** "Rate 1 - Residential Electric Service", 2017-07-01 to 2018-06-30: $0.11491 + $0.05676 adj a kWh, $19.25 a month. */
const RATE1_2017 = '5982002d5457a3ac198bbc44';
/** The same schedule from 2022-07-01: $0.18034 + $0.07345 adj a kWh, $9.62 a month (not bundled in the main file). */
const RATE1_2022 = '62fe87aff6dee418ab7bfcf9';
const ADMIN = 'admin-token-0123456789';
const NOW = new Date('2026-11-28T12:00:00Z');

// A run loads the utility reference files and merges page by page: minutes on a busy machine.
jest.setTimeout(240_000);
/** How long a queued run may take on a busy machine (the first loads the utility reference files). */
const RUN_WAIT_MS = 180_000;

/** A record the normaliser rejects (its schedule is not 12 x 24) and a line that is not a record at all. */
const BROKEN = {
  label: 'ffffffffffffffffffffffff',
  eiaid: 4176,
  utility: 'Connecticut Light & Power Co',
  name: 'Broken',
  sector: 'Residential',
  uri: 'https://apps.openei.org/IURDB/rate/view/ffffffffffffffffffffffff',
  startdate: 1700000000,
  energyratestructure: [[{ rate: 0.1 }]],
  energyweekdayschedule: [[0]],
  energyweekendschedule: [[0]],
};

function env(api: StandIn, extra: Record<string, string> = {}) {
  return {
    ADMIN_TOKEN: ADMIN,
    URDB_API_KEY: 'test-key',
    URDB_API_URL: api.url,
    URDB_API_BACKOFF_MS: '0',
    URDB_API_PAGE_SIZE: '5',
    // Long enough that a loaded CI machine never times out a healthy answer; the 'hang' fault costs this.
    URDB_API_TIMEOUT_MS: '2000',
    ...extra,
  };
}

const bundledLabels = () => recordedRecords(Number(CLP), { newer: false }).map((r) => r.label as string);

const admin = (req: request.Test) => req.set('X-Admin-Token', ADMIN);
const runOf = async (t: TestApp, id: string) => (await admin(request(t.app).get(`/api/v1/admin/tariffs/refresh/${id}`)).expect(200)).body;

/** Starts a refresh (202) and waits until the run has `status`; answers the run as it then stands. */
async function refreshUntil(t: TestApp, body: Record<string, unknown>, status: 'succeeded' | 'failed' = 'succeeded') {
  const { id } = (await admin(request(t.app).post('/api/v1/admin/tariffs/refresh')).send(body).expect(202)).body;
  await eventually(async () => expect((await runOf(t, id)).status).toBe(status), RUN_WAIT_MS);
  return runOf(t, id);
}

describe('catalog refresh from the URDB API (issue 49)', () => {
  let api: StandIn;
  let t: TestApp;
  let runId: string;
  const bill = async (tariffId: string, start: string, end: string) =>
    (
      await request(t.app)
        .post('/api/v1/calculate')
        .send({ tariff_id: tariffId, usage_kwh: 1000, period_start: start, period_end: end })
        .expect(200)
    ).body;

  beforeAll(async () => {
    api = await startUrdbStandIn(new Map([[CLP, [...recordedRecords(Number(CLP), { newer: true }), BROKEN, 42]]]));
    t = await createTestApp({ jobs: true, now: () => NOW, env: env(api) });
    await seedTariffs(t.deps.database, bundledLabels());
  });
  afterAll(async () => {
    await t.stop();
    await api.close();
  });

  it('before a refresh: the tariffs say they are bundled, and nothing says a refresh ran', async () => {
    const old = (await request(t.app).get(`/api/v1/tariffs/${RATE1_2017}`).expect(200)).body;
    expect(old).toMatchObject({ source: 'bundled', source_updated_at: null, superseded_by: null, expiration_date: '2018-06-30' });
    await request(t.app).get(`/api/v1/tariffs/${RATE1_2022}`).expect(404);
    const stats = (await request(t.app).get('/api/v1/tariffs/stats?include_expired=true&by_utility=true').expect(200)).body;
    expect(stats.data_currency.last_refresh).toBeNull();
    expect(stats.data_currency.utilities).toEqual([{ utility_id: CLP, newest_effective_date: '2019-07-01', refreshed_at: null }]);
  });

  it('POST /admin/tariffs/refresh: 202 with the run; the job pages through 429, 503 and a time-out and reports', async () => {
    api.faults.push({ status: 429 }, { status: 503 }, 'hang');
    const started = await admin(request(t.app).post('/api/v1/admin/tariffs/refresh'))
      .send({ eia: [CLP] })
      .expect(202);
    expect(started.body).toMatchObject({ status: 'queued', utilities: [CLP], utilities_done: 0 });
    runId = started.body.id;
    let run: { status: string; report: Record<string, unknown>; utilities_done: number; error: string | null } | undefined;
    await eventually(async () => {
      run = (await admin(request(t.app).get(`/api/v1/admin/tariffs/refresh/${runId}`)).expect(200)).body;
      expect(run!.status).toBe('succeeded');
    }, RUN_WAIT_MS);
    // 17 records, 5 a page: offsets 0, 5, 10 and 15, the first tried four times.
    expect(api.requests.map((q) => q.get('offset'))).toEqual(['0', '0', '0', '0', '5', '10', '15']);
    // The utility's first refresh asks for every record.
    expect(api.requests.map((q) => q.get('modified_after'))).toEqual(Array(7).fill(null));
    expect(run!.error).toBeNull();
    expect(run!.utilities_done).toBe(1);
    expect(run!.report).toEqual({
      fetched: 17,
      new: [RATE1_2022],
      changed: [],
      unchanged: 14,
      superseded: [{ id: RATE1_2017, superseded_by: RATE1_2022, expiration_date: '2018-06-30' }],
      ended: [],
      rejected: [
        { id: 'record 1 of the page', eia_id: CLP, reason: 'not a JSON object' },
        { id: BROKEN.label, eia_id: CLP, reason: expect.stringContaining('energyweekdayschedule') },
      ],
    });
  });

  it('the new record is stored as refreshed; the older revision names it and keeps its own end', async () => {
    const fresh = (await request(t.app).get(`/api/v1/tariffs/${RATE1_2022}`).expect(200)).body;
    expect(fresh).toMatchObject({
      source: 'refreshed',
      source_updated_at: NOW.toISOString(),
      effective_date: '2022-07-01',
      superseded_by: null,
      utility_id: CLP,
    });
    const old = (await request(t.app).get(`/api/v1/tariffs/${RATE1_2017}`).expect(200)).body;
    expect(old).toMatchObject({ source: 'bundled', superseded_by: RATE1_2022, expiration_date: '2018-06-30' });
    // Search items say the same as the detail.
    const found = (await request(t.app).get('/api/v1/tariffs/search?state=CT&include_expired=true&per_page=100').expect(200)).body;
    const item = (id: string) => found.items.find((i: { id: string }) => i.id === id);
    expect(item(RATE1_2022)).toMatchObject({ source: 'refreshed', source_updated_at: NOW.toISOString() });
    expect(item(RATE1_2017)).toMatchObject({ source: 'bundled', source_updated_at: null });
  });

  it('done when: a past bill prices on the old version, a new bill on the new one, by the days of each', async () => {
    // January 2018 on the 2017 rates: 1000 x (0.11491 + 0.05676) + 19.25 = 171.67 + 19.25.
    expect((await bill(RATE1_2017, '2018-01-01', '2018-01-31')).total_cost).toBe(190.92);
    // January 2025 on the 2022 rates, priced from the same tariff id: 1000 x (0.18034 + 0.07345) + 9.62 = 253.79 + 9.62.
    expect((await bill(RATE1_2017, '2025-01-01', '2025-01-31')).total_cost).toBe(263.41);
    expect((await bill(RATE1_2022, '2025-01-01', '2025-01-31')).total_cost).toBe(263.41);
    // The new tariff's own id, for a period before it took effect, prices on the version then in force.
    expect((await bill(RATE1_2022, '2018-01-01', '2018-01-31')).total_cost).toBe(190.92);
  });

  it('stats and /health say how current the data is', async () => {
    const stats = (await request(t.app).get('/api/v1/tariffs/stats?include_expired=true&by_utility=true').expect(200)).body;
    expect(stats.total_tariffs).toBe(15);
    expect(stats.data_currency.newest_effective_date).toBe('2022-07-01');
    expect(stats.data_currency.last_refresh).toEqual({ run_id: runId, status: 'succeeded', finished_at: NOW.toISOString() });
    expect(stats.data_currency.utilities).toEqual([
      { utility_id: CLP, newest_effective_date: '2022-07-01', refreshed_at: NOW.toISOString() },
    ]);
    const health = (await request(t.app).get('/health')).body;
    expect(health.tariff_data).toMatchObject({
      newest_effective_date: '2022-07-01',
      refresh_configured: true,
      last_refresh: { run_id: runId, status: 'succeeded', finished_at: NOW.toISOString() },
    });
  });

  // Replaces "a second refresh fetches the utility whole and changes nothing" (decision 0016, amended):
  // a later refresh asks only for the records modified since the last one started, less a day.
  it('a second refresh asks only for records modified since the first: none, so nothing changes', async () => {
    api.requests.length = 0;
    const run = await refreshUntil(t, { eia: [CLP] });
    expect(run.report).toMatchObject({ fetched: 0, new: [], changed: [], unchanged: 0, superseded: [] });
    // The first run started at NOW: 2026-11-28T12:00:00Z is 1795867200 s; less a day.
    expect(api.requests.map((q) => q.get('modified_after'))).toEqual([String(1795867200 - 86400)]);
  });

  it('a record URDB revised since is the one fetched, and stored as changed', async () => {
    const records = api.records.get(CLP)!;
    const rate1 = records.find((r) => (r as { label?: string }).label === RATE1_2022) as Record<string, unknown>;
    // Revised on 2026-11-28T13:00:00Z, with a fixed charge of $9.99 instead of $9.62.
    records.push({ ...rate1, fixedchargefirstmeter: 9.99, revisions: [...(rate1.revisions as number[]), 1795870800] });
    records.splice(records.indexOf(rate1), 1);
    api.requests.length = 0;
    const run = await refreshUntil(t, { eia: [CLP] });
    expect(run.report).toMatchObject({ fetched: 1, new: [], changed: [RATE1_2022], unchanged: 0, superseded: [] });
    // January 2025 on the revised rates: 253.79 + 9.99.
    expect((await bill(RATE1_2022, '2025-01-01', '2025-01-31')).total_cost).toBe(263.78);
  });

  it('refuses what it cannot do: no token, a bad EIA id, an unknown run', async () => {
    await request(t.app).post('/api/v1/admin/tariffs/refresh').send({}).expect(401);
    const bad = await admin(request(t.app).post('/api/v1/admin/tariffs/refresh'))
      .send({ eia: ['PG&E'] })
      .expect(422);
    expect(bad.body.errors[0].field).toBe('eia.0');
    await admin(request(t.app).post('/api/v1/admin/tariffs/refresh'))
      .send({ eia: [CLP], all: true })
      .expect(422);
    await admin(request(t.app).get('/api/v1/admin/tariffs/refresh/rr_nope')).expect(404);
    await admin(request(t.app).post('/api/v1/admin/tariffs/refresh')).send({ resume: runId }).expect(409);
  });
});

describe('a refresh the API stops is resumed where it stopped', () => {
  let api: StandIn;
  let t: TestApp;

  beforeAll(async () => {
    api = await startUrdbStandIn(new Map([[CLP, recordedRecords(Number(CLP), { newer: true })]]));
    t = await createTestApp({ jobs: true, now: () => NOW, env: env(api, { URDB_API_ATTEMPTS: '2' }) });
    await seedTariffs(t.deps.database, bundledLabels());
  });
  afterAll(async () => {
    await t.stop();
    await api.close();
  });

  it('fails after the tries of the second page, keeps the first, and the resumed run starts at the second', async () => {
    api.faults.push('pass', { status: 500 }, { status: 502 });
    const failed = await refreshUntil(t, { eia: [CLP] }, 'failed');
    const { id } = failed;
    expect(failed.error).toMatch(/gave up after 2 tries .* HTTP 502/);
    expect(failed.report).toMatchObject({ fetched: 5, unchanged: 5, new: [] });

    api.requests.length = 0;
    await admin(request(t.app).post('/api/v1/admin/tariffs/refresh')).send({ resume: id }).expect(202);
    await eventually(async () => expect((await runOf(t, id)).status).toBe('succeeded'), RUN_WAIT_MS);
    // 15 records: the page at 10 is full, so the one at 15 (empty) says the utility is done.
    expect(api.requests.map((q) => q.get('offset'))).toEqual(['5', '10', '15']);
    expect((await runOf(t, id)).report).toMatchObject({ fetched: 15, unchanged: 14, new: [RATE1_2022], rejected: [] });
  });
});

describe('without URDB_API_KEY nothing changes', () => {
  let api: StandIn;
  let t: TestApp;

  beforeAll(async () => {
    api = await startUrdbStandIn(new Map([[CLP, recordedRecords(Number(CLP), { newer: true })]]));
    t = await createTestApp({ now: () => NOW, env: { ADMIN_TOKEN: ADMIN, URDB_API_URL: api.url } });
    await seedTariffs(t.deps.database, bundledLabels());
  });
  afterAll(async () => {
    await t.stop();
    await api.close();
  });

  it('the admin endpoint says the refresh is not configured; no request is made; the catalog is as bundled', async () => {
    const res = await request(t.app)
      .post('/api/v1/admin/tariffs/refresh')
      .set('X-Admin-Token', ADMIN)
      .send({ eia: [CLP] })
      .expect(409);
    expect(res.body.detail).toMatch(/URDB_API_KEY/);
    expect(api.requests).toHaveLength(0);
    await request(t.app).get(`/api/v1/tariffs/${RATE1_2022}`).expect(404);
    expect((await request(t.app).get(`/api/v1/tariffs/${RATE1_2017}`).expect(200)).body.superseded_by).toBeNull();
    const health = (await request(t.app).get('/health')).body;
    expect(health.tariff_data).toMatchObject({ refresh_configured: false, last_refresh: null });
    // A billing period after the old record's end still prices on it, as before the refresh existed.
    const after = (
      await request(t.app)
        .post('/api/v1/calculate')
        .send({ tariff_id: RATE1_2017, usage_kwh: 1000, period_start: '2025-01-01', period_end: '2025-01-31' })
        .expect(200)
    ).body;
    expect(after.total_cost).toBe(190.92);
  });
});
