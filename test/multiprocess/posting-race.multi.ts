/**
 * Issue 46 item 1 on the Procfile roles: two `web` processes, two `worker` processes and a
 * `scheduler` on one PostgreSQL database and one Redis prefix, posting a RUBS calculation's charges
 * to a fake PMS ledger. A post and a re-bill of the same period, or a post and a void, fired at the
 * same moment at different web processes: exactly one wins (the other gets its 409), a superseded
 * or void calculation never has a charge on the provider's ledger, and the ledger holds, per unit
 * and period, exactly one calculation's charges. Then a worker SIGKILLed mid-posting: every charge
 * once. Run by `npm run test:multi` (a step of .ci/run).
 */
import type { Queue } from 'bullmq';
import { fakeUnit } from '../helpers/fake-pms';
import { FakePmsLedger } from '../helpers/fake-pms-ledger';
import { linkThroughProvider } from '../helpers/pms-link';
import { waitUntil } from '../helpers/eventually';
import {
  api,
  apiOk,
  jobRecords,
  registerUser,
  sharedServers,
  startAllRoles,
  startCluster,
  stopCluster,
  type Answer,
  type Cluster,
  type RoleProcess,
  type TestUser,
} from './processes';

const servers = sharedServers();
const describeMulti = servers ? describe : describe.skip;

/** Trials of each race (post vs re-bill, post vs void). */
const TRIALS = 8;
/** Units of the PMS property; the race trials bill the first RACE_UNITS, the SIGKILL trial all of them. */
const PMS_UNITS = 60;
const RACE_UNITS = 12;
const CONNECTION = 'race-conn';
const PMS_PROPERTY = 'RP1';

const NOT_ACTIVE = 'Only an active calculation can be posted';
const VOID_REFUSED = 'Calculation has charges posted to the PMS: reverse it before voiding it';
const rebillRefused = (id: string) =>
  `Calculation ${id} of this utility type overlaps the period and has charges posted to the PMS: reverse it first`;

/** The documented 409 of the loser: its detail, code `conflict` and the answer's request id (issue 51 error body). */
const isConflict = (body: unknown, detail: string) => {
  const b = body as { detail?: unknown; code?: unknown; request_id?: unknown };
  return b.detail === detail && b.code === 'conflict' && typeof b.request_id === 'string' && Object.keys(b).length === 3;
};

interface UnitBill {
  unit_id: string;
  total_charge: number;
  is_vacant: boolean;
}
interface Calculation {
  id: string;
  status: string;
  unit_bills: UnitBill[];
  posting: { status: string; posted: number; pending: number; failed: number; unknown?: number };
}

/** The calculation's charges in cents per unit (occupied units with a charge), as posting/lines.ts makes them. */
const chargesOf = (c: Calculation): Record<string, number> =>
  Object.fromEntries(
    c.unit_bills
      .filter((b) => !b.is_vacant && Math.round(b.total_charge * 100) !== 0)
      .map((b) => [b.unit_id, Math.round(b.total_charge * 100)]),
  );

describeMulti('posting races on two web processes, two workers and a scheduler (issue 46)', () => {
  const ledger = new FakePmsLedger();
  let cluster: Cluster;
  let webs: RoleProcess[];
  let workers: RoleProcess[];
  let queues: Map<string, Queue>;
  let owner: TestUser;
  let propertyId: string;
  let configId: string;

  const auth = () => ({ token: owner.token });
  const calculation = (id: string) => apiOk<Calculation>(webs[0].url, 'GET', `/api/v1/billing/calculations/${id}`, 200, auth());
  const postAt = (web: RoleProcess, id: string) => api(web.url, 'POST', `/api/v1/billing/calculations/${id}/post`, auth());
  const rubsBody = (period: string, total: number, units: number) => ({
    property_id: propertyId,
    billing_config_id: configId,
    billing_period_start: `${period}-01`,
    billing_period_end: `${period}-28`,
    total_amount: total,
    utility_type: 'water',
    units: Array.from({ length: units }, (_, i) => ({
      unit_id: `u${i + 1}`,
      tenant_name: `Resident ${i + 1}`,
      sqft: 600 + ((i * 37) % 500),
      is_vacant: (i + 1) % 4 === 0,
    })),
  });
  const calculate = (web: RoleProcess, period: string, total: number, units = RACE_UNITS) =>
    api<Calculation>(web.url, 'POST', '/api/v1/billing/calculate-rubs', { ...auth(), body: rubsBody(period, total, units) });
  /** Waits until no line of the calculation is pending (its posting jobs ran on the workers). */
  const settled = async (id: string, timeoutMs = 60_000) => {
    let calc: Calculation | undefined;
    await waitUntil(`posting of ${id} settled`, async () => (calc = await calculation(id)).posting.pending === 0, timeoutMs, 50);
    return calc!;
  };
  /** What the provider's ledger holds for a period, in cents per PMS unit (each charge and reversal summed). */
  const ledgerFor = (period: string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const c of ledger.charges.values()) {
      if (!String(c.body.description).includes(`${period}-01 to ${period}-28`)) continue;
      const unit = String(c.body.unit_id);
      out[unit] = (out[unit] ?? 0) + Math.round(Number(c.body.amount) * 100);
    }
    return out;
  };
  const chargesOnLedger = (id: string) => [...ledger.charges.keys()].filter((k) => k.startsWith(`${id}:`));

  beforeAll(async () => {
    const providerUrl = await ledger.start();
    cluster = await startCluster(servers!, { PMS_API_URL: providerUrl, PMS_API_KEY: 'multi-ledger-key', PMS_API_TIMEOUT_MS: '5000' });
    ({ webs, workers, queues } = await startAllRoles(cluster));

    // A property whose tenant units are the PMS's (u1..u60, imported by a worker when it is linked), and its configuration.
    owner = await registerUser(webs[0].url, 'race');
    propertyId = (
      await apiOk<{ id: string }>(webs[0].url, 'POST', '/api/v1/pm/properties', 201, {
        ...auth(),
        body: {
          name: 'Race Court',
          address: '1 Main St',
          city: 'Gladstone',
          state: 'MI',
          zip_code: '49837',
          property_type: 'residential',
          unit_count: PMS_UNITS,
        },
      })
    ).id;
    ledger.setUnits(
      CONNECTION,
      PMS_PROPERTY,
      Array.from({ length: PMS_UNITS }, (_, i) => fakeUnit(i + 1, PMS_PROPERTY)),
    );
    await linkThroughProvider(
      (method, path, body) => apiOk(webs[1].url, method, path, method === 'POST' ? 201 : 200, { ...auth(), body }),
      ledger,
      propertyId,
      { connection_id: CONNECTION, pms_property_id: PMS_PROPERTY },
    );
    await waitUntil(
      'PMS units imported',
      async () =>
        (await apiOk<{ last_synced_at: string | null }>(webs[0].url, 'GET', `/api/v1/pm/properties/${propertyId}/pms`, 200, auth()))
          .last_synced_at !== null,
      60_000,
    );
    configId = (
      await apiOk<{ id: string }>(webs[0].url, 'POST', '/api/v1/billing/config', 201, {
        ...auth(),
        body: { property_id: propertyId, method: 'sqft', utility_types: ['water'], common_area_percent: 10, admin_fee_percent: 5 },
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await stopCluster(cluster, queues);
    await ledger.stop();
  }, 60_000);

  /**
   * One race on its own period: a calculation, then its post and `race` fired together at different web
   * processes. Returns who won and what went wrong (nothing when exactly one won and the ledger holds the winner's charges once).
   */
  async function raceTrial(
    trial: number,
    race: 'rebill' | 'void',
    period: string,
    units = RACE_UNITS,
    duringPosting?: (id: string) => Promise<void>,
  ): Promise<{ won: string; problems: string[] }> {
    const problems: string[] = [];
    const label = `trial ${trial} (${race}, ${period})`;
    const [webPost, webOther] = trial % 2 === 0 ? webs : [webs[1], webs[0]];
    const first = await calculate(webs[trial % 2], period, 1000 + trial, units);
    if (first.status !== 200) return { won: 'none', problems: [`${label}: calculate-rubs ${first.status} ${JSON.stringify(first.body)}`] };
    const id = first.body.id;

    const [posted, raced]: Answer[] = await Promise.all([
      postAt(webPost, id),
      race === 'rebill'
        ? calculate(webOther, period, 1200 + trial, units)
        : api(webOther.url, 'POST', `/api/v1/billing/calculations/${id}/void`, { ...auth(), body: { reason: 'wrong meter read' } }),
    ]);
    const postWon = posted.status === 202;
    const otherWon = raced.status === 200;
    if (postWon === otherWon) problems.push(`${label}: post ${posted.status}, ${race} ${raced.status} (exactly one must win)`);
    // The loser's documented 409.
    if (postWon && !otherWon && !isConflict(raced.body, race === 'rebill' ? rebillRefused(id) : VOID_REFUSED)) {
      problems.push(`${label}: ${race} answered ${raced.status} ${JSON.stringify(raced.body)}`);
    }
    if (otherWon && !postWon && !isConflict(posted.body, NOT_ACTIVE))
      problems.push(`${label}: post answered ${posted.status} ${JSON.stringify(posted.body)}`);

    // The winner's charges: a re-bill's once it is posted in turn (at the other web process), else the posted calculation's.
    let winner: Calculation | undefined;
    if (race === 'rebill' && otherWon) {
      const rebill = raced.body as Calculation;
      const again = await postAt(webPost, rebill.id);
      if (again.status !== 202) problems.push(`${label}: posting the re-bill answered ${again.status} ${JSON.stringify(again.body)}`);
      else if (duringPosting) await duringPosting(rebill.id);
      winner = await settled(rebill.id, 120_000);
    } else if (postWon && duringPosting) {
      await duringPosting(id);
    }
    const original = await settled(id, 120_000);
    if (postWon && !otherWon) winner = original;

    const expectedStatus = !otherWon ? 'active' : race === 'rebill' ? 'superseded' : 'void';
    if (original.status !== expectedStatus) problems.push(`${label}: the calculation is ${original.status}, expected ${expectedStatus}`);
    // A superseded or void calculation never has charges on the provider's ledger.
    if (original.status !== 'active' && chargesOnLedger(id).length > 0) {
      problems.push(`${label}: ${original.status} calculation ${id} has ${chargesOnLedger(id).length} charges on the ledger`);
    }
    if (winner && winner.posting.status !== 'posted') problems.push(`${label}: the winner's posting is ${winner.posting.status}`);
    // The ledger holds, for each unit of the period, exactly one calculation's charge (nothing at all after a void).
    const expected = winner ? chargesOf(winner) : {};
    const held = ledgerFor(period);
    const sorted = (m: Record<string, number>) => JSON.stringify(Object.entries(m).sort(([a], [b]) => a.localeCompare(b)));
    if (sorted(held) !== sorted(expected)) {
      const dollars = (m: Record<string, number>) => (Object.values(m).reduce((a, b) => a + b, 0) / 100).toFixed(2);
      problems.push(
        `${label}: the ledger holds $${dollars(held)} over ${Object.keys(held).length} units for the period; one calculation's charges are $${dollars(expected)} over ${Object.keys(expected).length}`,
      );
    }
    return { won: postWon && otherWon ? 'both' : postWon ? 'post' : otherWon ? race : 'none', problems };
  }

  it.each(['rebill', 'void'] as const)(
    "a post racing a %s at the other web process: exactly one wins, and the ledger holds one calculation's charges per unit and period",
    async (race) => {
      const problems: string[] = [];
      const wins: Record<string, number> = {};
      for (let trial = 0; trial < TRIALS; trial++) {
        // Each trial bills its own month (re-bills supersede only what overlaps their period).
        const year = race === 'rebill' ? 2024 : 2025;
        const outcome = await raceTrial(trial, race, `${year}-${String(trial + 1).padStart(2, '0')}`);
        wins[outcome.won] = (wins[outcome.won] ?? 0) + 1;
        problems.push(...outcome.problems);
      }
      console.log(`[posting-race] post vs ${race}, ${TRIALS} trials: won by ${JSON.stringify(wins)}`);
      expect(problems).toEqual([]);
      expect(ledger.duplicates()).toEqual([]);
      const failed = (await jobRecords(queues)).filter((r) => r.queue === 'rubs-posting' && r.state === 'failed');
      expect(failed.map((r) => `${r.id}: ${r.failedReason}`)).toEqual([]);
    },
    300_000,
  );

  it("a race whose posting loses its worker to a SIGKILL mid-way: every charge once, the ledger holds one calculation's charges", async () => {
    let killed: RoleProcess | undefined;
    let chargesAtKill = 0;
    // 45 charges at 300 ms each, 10 at a time: about 1.5 s of posting, with the kill in the middle of it.
    ledger.latencyMs = 300;
    try {
      const { problems } = await raceTrial(0, 'rebill', '2026-06', PMS_UNITS, async (id) => {
        await waitUntil('charges being created', async () => chargesOnLedger(id).length >= 10, 30_000, 5);
        const active = await queues.get('rubs-posting')!.getJobs(['active']);
        const job = active.find((j) => (j?.data as { payload?: { calculation_id?: string } } | undefined)?.payload?.calculation_id === id);
        killed = workers.find((w) => w.workerName === job?.processedBy);
        if (!killed) throw new Error(`no worker holds the posting job of ${id} (active: ${active.map((j) => j?.id).join(', ')})`);
        await killed.kill();
        chargesAtKill = chargesOnLedger(id).length;
        // The cluster keeps two workers: the stalled job comes back (its lock expires) on either.
        workers = [workers.find((w) => w !== killed)!, await cluster.spawn('worker')];
      });
      expect(problems).toEqual([]);
    } finally {
      ledger.latencyMs = 0;
    }
    expect(killed).toBeDefined();
    const periodCharges = [...ledger.charges.values()].filter((c) => String(c.body.description).includes('2026-06-01 to 2026-06-28'));
    expect(chargesAtKill).toBeLessThan(periodCharges.length);
    // Each key created its charge once, and no two keys made the same charge.
    expect(periodCharges.filter((c) => c.creations !== 1)).toEqual([]);
    expect(ledger.duplicates()).toEqual([]);
  }, 300_000);
});
