/**
 * Posting a calculation's charges to the PMS ledger (issue 30, item 6) over HTTP: a fake PMS
 * provider serves the units and the charges API (counting what it creates per Idempotency-Key),
 * the jobs run in-process through the real processors.
 */
import { eq } from 'drizzle-orm';
import type { ServerResponse } from 'node:http';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { FakePmsLedger, type FakeChargeCall } from '../helpers/fake-pms-ledger';
import { as, calculateBody, createConfig, createProperty } from './helpers';
import { client } from '../webhooks/helpers';
import { bindConnectionDirectly } from '../helpers/pms-link';
import { rubsCalculations } from '../../src/modules/tenant-billing/tables';
import type { InProcessJobQueue } from '../../src/platform/queue/types';
import { strictSchemaProblems, type OpenApiDocument } from '../helpers/openapi-strict';
import request from 'supertest';
import type { AppQueues } from '../../src/queues';
import { errorBody } from '../helpers/error-body';
import { API_KEY, linkedCalculation, PMS_UNITS, type Calculation, type Line } from './posting-helpers';

const NO_PMS = errorBody({ detail: 'No PMS integration configured for this property' });

describe('posting a calculation to the PMS ledger', () => {
  const fake = new FakePmsLedger();
  let url: string;
  let t: TestApp;
  let token: string;
  let properties = 0;

  beforeAll(async () => {
    url = await fake.start();
    // The in-process queue even when REDIS_URL is set: the tests drain it (test/faults/rubs-posting.fault.ts runs BullMQ's worker).
    t = await createTestApp({ jobs: true, env: { PMS_API_URL: url, PMS_API_KEY: API_KEY, REDIS_URL: '' } });
    token = (await registerUser(t)).token;
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });
  beforeEach(() => {
    fake.behaviour = undefined;
    fake.latencyMs = 0;
  });

  /** linkedCalculation's on PMS property `P<n>` of connection `conn-<n>`, a new n each time. */
  async function calculation(units: unknown[] = PMS_UNITS, overrides: Record<string, unknown> = {}) {
    properties += 1;
    return linkedCalculation(t, token, fake, { conn: `conn-${properties}`, pmsProperty: `P${properties}` }, units, overrides);
  }

  const post = (id: string, user = token, app = t) => as(app, user).post(`/billing/calculations/${id}/post`);
  const reverse = (id: string, user = token, app = t) => as(app, user).post(`/billing/calculations/${id}/reverse`);
  const get = async (id: string, app = t, user = token) =>
    (await as(app, user).get(`/billing/calculations/${id}`).expect(200)).body as Calculation;
  const settled = async (id: string, status: string, app = t, user = token) => {
    let calc: Calculation | undefined;
    await eventually(async () => {
      calc = await get(id, app, user);
      expect(calc.posting.status).toBe(status);
    });
    return calc!;
  };
  const callsOf = (id: string) => fake.calls.filter((c) => c.idempotencyKey?.startsWith(`${id}:`));
  const key = (id: string, unit: string, action = 'post') => `${id}:${unit}:0:${action}`;
  const line = (calc: Calculation, unit: string, action = 'post') =>
    calc.posting.lines.find((l) => l.unit_id === unit && l.action === action)!;
  /** Answers the first `n` calls of each of `keys` with `answer`, then lets the fake answer. */
  const failFirst = (keys: string[], answer: (res: ServerResponse, call: FakeChargeCall) => void, n = 1) => {
    const seen = new Map<string, number>();
    fake.behaviour = (call, res) => {
      if (!keys.includes(call.idempotencyKey ?? '')) return false;
      const count = (seen.get(call.idempotencyKey!) ?? 0) + 1;
      seen.set(call.idempotencyKey!, count);
      if (count > n) return false;
      answer(res, call);
      return true;
    };
  };

  it("posts each occupied unit's charge on the worker: exact bodies, bearer key and Idempotency-Keys; GET shows each line", async () => {
    const { id, conn, pmsProperty } = await calculation();
    fake.latencyMs = 100;
    const res = await post(id).expect(202);
    expect(res.body).toMatchObject({ status: 'pending', charges: 3, posted: 0, pending: 3, failed: 0, reversed: 0 });
    expect(res.body.lines.map((l: Line) => [l.unit_id, l.occupancy, l.action, l.amount, l.status])).toEqual([
      ['u1', 0, 'post', 472.5, 'pending'],
      ['u2', 0, 'post', 354.38, 'pending'],
      ['u3', 0, 'post', 118.13, 'pending'],
    ]);

    const calc = await settled(id, 'posted');
    expect(calc.posting).toMatchObject({ charges: 3, posted: 3, pending: 0, failed: 0, reversed: 0 });
    // The vacant unit (u4, charge 0) is not posted.
    const calls = callsOf(id);
    expect(calls.map((c) => c.idempotencyKey).sort()).toEqual([key(id, 'u1'), key(id, 'u2'), key(id, 'u3')]);
    const chargeDate = calc.due_date ?? calc.billing_period_end;
    for (const [unit, resident, amount] of [
      ['u1', 'Ana Lima', '472.50'],
      ['u2', 'Ben Okafor', '354.38'],
      ['u3', 'Chen Wei', '118.13'],
    ]) {
      const call = calls.find((c) => c.idempotencyKey === key(id, unit))!;
      const bill = calc.unit_bills.find((b) => b.unit_id === unit)!;
      const invoice = bill.invoice_number ? ` invoice ${bill.invoice_number}` : '';
      expect(call.authorization).toBe(`Bearer ${API_KEY}`);
      expect(call.contentType).toBe('application/json');
      expect(call.raw).toBe(
        `{"connection_id":"${conn}","property_id":"${pmsProperty}","unit_id":"${unit}","resident_name":"${resident}",` +
          `"amount":${amount},"description":"Water (RUBS) 2026-01-01 to 2026-01-31${invoice}","charge_date":"${chargeDate}"}`,
      );
      expect(line(calc, unit)).toMatchObject({
        occupancy: 0,
        status: 'posted',
        provider_charge_id: fake.charges.get(key(id, unit))!.id,
        error: null,
        attempts: 1,
      });
    }
    expect(fake.duplicates()).toEqual([]);
    // A posted calculation cannot be voided, only reversed.
    expect((await as(t, token).post(`/billing/calculations/${id}/void`, { reason: 'wrong bill' }).expect(409)).body).toEqual(
      errorBody({ detail: 'Calculation has charges posted to the PMS: reverse it before voiding it' }),
    );
  });

  it("a unit that turned over posts one charge per occupancy, each to its resident, under its occupancy's key", async () => {
    const units = [
      {
        unit_id: 'u1',
        tenant_name: '',
        sqft: 1000,
        occupancies: [
          { tenant_name: 'Ana Lima', move_out: '2026-01-15' },
          { tenant_name: 'Dana Moss', move_in: '2026-01-16' },
        ],
      },
      { unit_id: 'u2', tenant_name: 'Ben Okafor', sqft: 1000 },
    ];
    const { id } = await calculation(units);
    await post(id).expect(202);
    const calc = await settled(id, 'posted');
    // $900.00 billable by sqft: u2 half ($450.00 + 5 % = $472.50); u1's half by days, 15 and 16 of 31.
    expect(calc.posting.lines.map((l) => [l.unit_id, l.occupancy, l.amount])).toEqual([
      ['u1', 0, 228.63],
      ['u1', 1, 243.86],
      ['u2', 0, 472.5],
    ]);
    expect(fake.charges.get(`${id}:u1:0:post`)!.body).toMatchObject({ unit_id: 'u1', resident_name: 'Ana Lima', amount: 228.63 });
    expect(fake.charges.get(`${id}:u1:1:post`)!.body).toMatchObject({ unit_id: 'u1', resident_name: 'Dana Moss', amount: 243.86 });
  });

  it('never creates a second charge: an answer lost, a double request, the job run again, posting again', async () => {
    const { id } = await calculation();
    // The provider creates u2's charge, then the connection drops before the answer: the retry gets the same charge.
    failFirst([key(id, 'u2')], (res, call) => {
      fake.create(call);
      res.socket?.destroy();
    });
    const [a, b] = await Promise.all([post(id), post(id)]);
    expect([a.status, b.status]).toEqual([202, 202]);
    const calc = await settled(id, 'posted');
    expect(line(calc, 'u2')).toMatchObject({ status: 'posted', provider_charge_id: fake.charges.get(key(id, 'u2'))!.id, attempts: 2 });
    expect(fake.callsFor(key(id, 'u2'))).toBe(2);
    expect([...fake.charges.keys()].filter((k) => k.startsWith(id)).sort()).toEqual([key(id, 'u1'), key(id, 'u2'), key(id, 'u3')]);

    // The job again (a retry, a re-delivery after a crash): posted lines are not sent again.
    const calls = callsOf(id).length;
    const queue = t.deps.queue as InProcessJobQueue<AppQueues>;
    await queue.enqueue(
      'rubs-posting',
      { calculation_id: id, action: 'post' },
      { jobId: `again-${id}`, orderingKey: `rubs-posting.${id}` },
    );
    await queue.drain();
    expect(callsOf(id)).toHaveLength(calls);
    expect((await post(id).expect(409)).body).toEqual(errorBody({ detail: 'Calculation is already posted' }));
    expect(fake.duplicates()).toEqual([]);
  });

  it('a post racing a re-bill or a void: exactly one wins, and a superseded or void calculation never has charges (issue 46, concurrent trials)', async () => {
    // On PostgreSQL (CI's first run) each request has its own connection, so the two really race; on the embedded
    // database they run one after the other, which must hold the same rules.
    for (let trial = 0; trial < 8; trial++) {
      const race = trial % 2 === 0 ? 'rebill' : 'void';
      const { id, propertyId } = await calculation();
      const calc = (await as(t, token).get(`/billing/calculations/${id}`).expect(200)).body;
      const other =
        race === 'rebill'
          ? as(t, token).post(
              '/billing/calculate-rubs',
              calculateBody(propertyId, calc.billing_config_id, { total_amount: 1200, units: PMS_UNITS }),
            )
          : as(t, token).post(`/billing/calculations/${id}/void`, { reason: 'wrong meter read' });
      const [posted, raced] = await Promise.all([post(id), other]);
      const won = [posted.status === 202, raced.status === 200].filter(Boolean).length;
      expect({ trial, race, won, statuses: [posted.status, raced.status] }).toMatchObject({ won: 1 });
      await eventually(async () => expect((await get(id)).posting.pending).toBe(0));
      const after = (await get(id)) as Calculation & { status: string };
      if (raced.status === 200) {
        expect(after.status).toBe(race === 'rebill' ? 'superseded' : 'void');
        expect(after.posting.posted + after.posting.pending).toBe(0);
        expect(callsOf(id)).toHaveLength(0);
      } else {
        expect(after.status).toBe('active');
        expect(after.posting).toMatchObject({ status: 'posted', posted: 3 });
      }
    }
    expect(fake.duplicates()).toEqual([]);
  }, 120_000);

  it('retries a 5xx with back-off, then posts', async () => {
    const { id } = await calculation();
    const keys = [key(id, 'u1'), key(id, 'u2'), key(id, 'u3')];
    failFirst(keys, (res) => res.writeHead(503).end());
    await post(id).expect(202);
    const calc = await settled(id, 'posted');
    for (const k of keys) expect(fake.callsFor(k)).toBe(2);
    expect(calc.posting.lines.map((l) => [l.status, l.attempts, l.error])).toEqual([
      ['posted', 2, null],
      ['posted', 2, null],
      ['posted', 2, null],
    ]);
  });

  it("a 4xx is final: the line is failed with the provider's reason, not retried; posting again retries it", async () => {
    const { id } = await calculation();
    failFirst([key(id, 'u3')], (res) =>
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'resident has moved out' })),
    );
    await post(id).expect(202);
    let calc = await settled(id, 'partially_posted');
    expect(calc.posting).toMatchObject({ charges: 3, posted: 2, pending: 0, failed: 1 });
    expect(line(calc, 'u3')).toMatchObject({
      status: 'failed',
      error: 'HTTP 422: resident has moved out',
      provider_charge_id: null,
      attempts: 1,
    });
    expect(fake.callsFor(key(id, 'u3'))).toBe(1);
    expect(fake.charges.has(key(id, 'u3'))).toBe(false);

    const again = await post(id).expect(202);
    expect(again.body.lines.map((l: Line) => l.status)).toEqual(['posted', 'posted', 'pending']);
    calc = await settled(id, 'posted');
    expect(line(calc, 'u3')).toMatchObject({ status: 'posted', error: null, attempts: 2 });
    expect(fake.callsFor(key(id, 'u1'))).toBe(1);
  });

  it("finds the PMS unit by its PMS id or by its imported record's id; a unit the PMS property lacks is failed with the reason", async () => {
    const { id: first, propertyId } = await calculation();
    const units = (await as(t, token).get(`/pm/properties/${propertyId}/units`).expect(200)).body.items as Array<{
      id: string;
      pms_unit_id: string;
    }>;
    const localU2 = units.find((u) => u.pms_unit_id === 'u2')!.id;
    // Another calculation of the same property: u2 named by its imported record's id, and a unit X9 the PMS does not have.
    const config = (await as(t, token).get(`/billing/config/${propertyId}`).expect(200)).body[0].id;
    const calc = await as(t, token)
      .post('/billing/calculate-rubs', {
        property_id: propertyId,
        billing_config_id: config,
        billing_period_start: '2026-02-01',
        billing_period_end: '2026-02-28',
        total_amount: 300,
        utility_type: 'water',
        units: [
          { unit_id: 'u1', tenant_name: 'Ana Lima', sqft: 100 },
          { unit_id: localU2, tenant_name: 'Ben Okafor', sqft: 100 },
          { unit_id: 'X9', tenant_name: 'Nobody', sqft: 100 },
        ],
      })
      .expect(200);
    const id = calc.body.id as string;
    await post(id).expect(202);
    const result = await settled(id, 'partially_posted');
    expect(line(result, 'X9')).toMatchObject({ status: 'failed', error: 'unit X9 is not a unit of the linked PMS property', attempts: 0 });
    expect(fake.callsFor(key(id, 'X9'))).toBe(0);
    expect(line(result, localU2).status).toBe('posted');
    expect(fake.calls.find((c) => c.idempotencyKey === key(id, localU2))!.body.unit_id).toBe('u2');
    expect(first).not.toBe(id);
  });

  it('reverse: a negative charge per posted line under its own key; GET shows it; then 409s', async () => {
    const { id, propertyId } = await calculation();
    expect((await reverse(id).expect(409)).body).toEqual(errorBody({ detail: 'Nothing posted to reverse' }));
    await post(id).expect(202);
    const posted = await settled(id, 'posted');
    // A re-bill of the period is refused while the charges are on the ledger.
    const { billing_config_id: configId } = (await as(t, token).get(`/billing/calculations/${id}`).expect(200)).body as {
      billing_config_id: string;
    };
    const rebillBody = {
      property_id: propertyId,
      billing_config_id: configId,
      billing_period_start: '2026-01-10',
      billing_period_end: '2026-02-09',
      total_amount: 1100,
      utility_type: 'water',
      units: PMS_UNITS,
    };
    expect((await as(t, token).post('/billing/calculate-rubs', rebillBody).expect(409)).body).toEqual(
      errorBody({
        detail: `Calculation ${id} of this utility type overlaps the period and has charges posted to the PMS: reverse it first`,
      }),
    );
    const res = await reverse(id).expect(202);
    expect(res.body.status).toMatch(/^(reversing|reversed)$/);
    const calc = await settled(id, 'reversed');
    expect(calc.posting).toMatchObject({ charges: 3, posted: 3, reversed: 3, pending: 0, failed: 0 });
    const chargeDate = posted.due_date ?? posted.billing_period_end;
    for (const [unit, amount] of [
      ['u1', '-472.50'],
      ['u2', '-354.38'],
      ['u3', '-118.13'],
    ]) {
      const call = fake.calls.find((c) => c.idempotencyKey === key(id, unit, 'reverse'))!;
      const original = fake.charges.get(key(id, unit))!.body;
      expect(call.raw).toContain(`"amount":${amount},`);
      expect(call.body).toMatchObject({
        unit_id: unit,
        resident_name: original.resident_name,
        charge_date: chargeDate,
        description: `Reversal of ${original.description}`,
      });
      expect(line(calc, unit, 'reverse')).toMatchObject({
        amount: Number(amount),
        status: 'posted',
        provider_charge_id: fake.charges.get(key(id, unit, 'reverse'))!.id,
      });
      expect(line(calc, unit, 'post').status).toBe('posted');
    }
    expect((await reverse(id).expect(409)).body).toEqual(errorBody({ detail: 'Calculation is already reversed' }));
    expect((await post(id).expect(409)).body).toEqual(errorBody({ detail: 'Calculation is already posted' }));
    // Reversed, it can be superseded by the re-bill (or voided).
    expect((await as(t, token).post('/billing/calculate-rubs', rebillBody).expect(200)).body.supersedes).toEqual([id]);
    expect((await as(t, token).post(`/billing/calculations/${id}/void`, { reason: 'reversed' }).expect(200)).body.status).toBe('void');
  });

  it('400 for a property without a PMS link; 404 for another account or an unknown id; 409 for a calculation not active or without charges', async () => {
    const property = await createProperty(t, token);
    const config = await createConfig(t, token, property.id);
    const unlinked = await as(t, token).post('/billing/calculate-rubs', calculateBody(property.id, config.id)).expect(200);
    expect((await post(unlinked.body.id).expect(400)).body).toEqual(NO_PMS);
    expect((await reverse(unlinked.body.id).expect(400)).body).toEqual(NO_PMS);

    const { id } = await calculation();
    const bob = (await registerUser(t)).token;
    expect((await post(id, bob).expect(404)).body).toEqual(errorBody({ detail: 'Calculation not found' }));
    expect((await reverse(id, bob).expect(404)).body).toEqual(errorBody({ detail: 'Calculation not found' }));
    expect((await post('no-such-calculation').expect(404)).body).toEqual(errorBody({ detail: 'Calculation not found' }));

    // Superseded (by a re-bill) or void: not active.
    for (const status of ['superseded', 'void'] as const) {
      await t.deps.database.db.update(rubsCalculations).set({ status }).where(eq(rubsCalculations.id, id));
      expect((await post(id).expect(409)).body).toEqual(errorBody({ detail: 'Only an active calculation can be posted' }));
    }
    expect((await get(id)).posting).toEqual({
      status: 'not_posted',
      charges: 0,
      posted: 0,
      pending: 0,
      failed: 0,
      unknown: 0,
      reversed: 0,
      lines: [],
    });

    const { id: nothing } = await calculation(PMS_UNITS, { total_amount: 0 });
    expect((await post(nothing).expect(409)).body).toEqual(
      errorBody({ detail: 'Calculation has no charges to post (every unit is vacant or charged 0)' }),
    );
    expect(callsOf(id)).toHaveLength(0);
  });

  it('is documented: post and reverse answer 202 with the posting, their errors are listed, the GET shows `posting`; examples are valid', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body as OpenApiDocument;
    type Op = {
      summary: string;
      description: string;
      responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
    };
    for (const action of ['post', 'reverse']) {
      const op = (doc.paths[`/api/v1/billing/calculations/{id}/${action}`] as Record<string, Op>).post;
      expect(op.summary).toBeTruthy();
      expect(op.description).toContain('Idempotency-Key');
      expect(Object.keys(op.responses).sort()).toEqual(['202', '400', '401', '404', '409', '422', '429', '503']);
      expect(op.responses['202'].content!['application/json'].schema.example).toBeDefined();
      expect((op.responses['404'] as unknown as { description: string }).description).toBe('Calculation not found');
    }
    const get = (doc.paths['/api/v1/billing/calculations/{id}'] as Record<string, Op>).get;
    const schema = get.responses['200'].content!['application/json'].schema as {
      properties: Record<string, unknown>;
      example: { posting: unknown };
    };
    expect(schema.properties.posting).toBeDefined();
    expect(schema.example.posting).toBeDefined();
    expect(strictSchemaProblems(doc).filter((p) => p.includes('/billing/calculations/{id}'))).toEqual([]);
  });

  it('400 for every property while PMS_API_URL / PMS_API_KEY are unset', async () => {
    const bare = await createTestApp({ jobs: true });
    try {
      const user = (await registerUser(bare)).token;
      const property = await createProperty(bare, user);
      // Bound while a provider was configured (no link session can be completed without one).
      await bindConnectionDirectly(bare, user, 'c-bare');
      await client(bare, user).put(`/pm/properties/${property.id}/pms`, { connection_id: 'c-bare', pms_property_id: 'p' }).expect(200);
      const config = await createConfig(bare, user, property.id);
      const calc = await as(bare, user).post('/billing/calculate-rubs', calculateBody(property.id, config.id)).expect(200);
      expect((await post(calc.body.id, user, bare).expect(400)).body).toEqual(NO_PMS);
    } finally {
      await bare.stop();
    }
  });
});
