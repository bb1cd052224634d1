/**
 * Issue 45 item 7: an own tariff from a URDB record is the caller's input. Tiers out of order (max
 * 1000, then 500) are a 422 naming the JSON path (`urdb.energyratestructure[0][1].max`), as is a
 * schedule naming a period without rates (`urdb.energyweekdayschedule[0][12]`); before, the first was
 * stored and priced with the tier dropped. Tariffs README "Custom tariffs", urdb.check.ts.
 */
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as } from '../pm/helpers';
import { errorBody } from '../helpers/error-body';

const every = (period: number) => Array.from({ length: 12 }, () => Array<number>(24).fill(period));
/** Weekdays 12:00-18:00 on period 1, else period 0. */
const afternoons = () => Array.from({ length: 12 }, () => Array.from({ length: 24 }, (_, h) => (h >= 12 && h < 18 ? 1 : 0)));

/** A tiered commercial record: 0.10 $/kWh to 500 kWh, 0.12 to 1,000, 0.15 above; $10 a month. */
const tiered = (tiers: Array<{ rate: number; max?: number; unit?: string }>) => ({
  eiaid: 15466,
  utility: 'Public Service Co of Colorado',
  name: 'Tiered general service',
  sector: 'Commercial',
  energyratestructure: [tiers],
  energyweekdayschedule: every(0),
  energyweekendschedule: every(0),
  fixedchargefirstmeter: 10,
  fixedchargeunits: '$/month',
});

describe('an own tariff from a URDB record: tiers in order, schedules naming periods with rates (issue 45 item 7)', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const create = (body: unknown) => as(t, alice).post('/tariffs/custom', body);
  const calc = (body: unknown) =>
    request(t.app)
      .post('/api/v1/calculate')
      .set('Authorization', `Bearer ${alice}`)
      .send(body as object);

  it("refuses tiers out of order (max 1000, then 500) at the tier's JSON path", async () => {
    const res = await create({ urdb: tiered([{ rate: 0.1, max: 1000 }, { rate: 0.12, max: 500 }, { rate: 0.15 }]) }).expect(422);
    const message =
      "urdb.energyratestructure[0][1].max must be greater than the previous tier's max (1000 kWh): it is 500, so the tier would cover no usage";
    expect(res.body).toEqual(errorBody({ detail: message, errors: [{ field: 'urdb.energyratestructure[0][1].max', message }] }));
    // An equal bound covers nothing either; a demand structure's tiers alike.
    expect(
      (await create({ urdb: tiered([{ rate: 0.1, max: 500 }, { rate: 0.12, max: 500 }, { rate: 0.15 }]) }).expect(422)).body.errors[0]
        .field,
    ).toBe('urdb.energyratestructure[0][1].max');
    const demand = {
      ...tiered([{ rate: 0.1 }]),
      flatdemandstructure: [[{ rate: 5, max: 100 }, { rate: 4, max: 50 }, { rate: 3 }]],
      flatdemandmonths: Array(12).fill(0),
    };
    expect((await create({ urdb: demand }).expect(422)).body.errors).toEqual([
      {
        field: 'urdb.flatdemandstructure[0][1].max',
        message:
          "urdb.flatdemandstructure[0][1].max must be greater than the previous tier's max (100 kW): it is 50, so the tier would cover no usage",
      },
    ]);
  });

  it('prices tiers in order; bounds of different units (kWh, then kWh/kW hours-use tiers) are taken as published', async () => {
    const created = (
      await create({
        urdb: tiered([{ rate: 0.1, max: 500 }, { rate: 0.12, max: 1000 }, { rate: 0.15 }]),
        effective_date: '2026-01-01',
      }).expect(201)
    ).body;
    // 500 x 0.10 + 500 x 0.12 + 200 x 0.15 + 10 = 150.00
    expect((await calc({ tariff_id: created.id, usage_kwh: 1200, month: 7 }).expect(200)).body.total_cost).toBe(150);
    await create({
      urdb: tiered([
        { rate: 0.1, max: 3000, unit: 'kWh' },
        { rate: 0.08, max: 200, unit: 'kWh/kW' },
        { rate: 0.06, unit: 'kWh/kW' },
      ]),
    }).expect(201);
  });

  it("refuses a schedule naming a period without rates at the value's JSON path", async () => {
    const weekdays = every(0);
    weekdays[0]![12] = 2; // January, 12:00-13:00: a third period the record does not have
    const record = {
      ...tiered([{ rate: 0.1 }]),
      energyratestructure: [[{ rate: 0.1 }], [{ rate: 0.2 }]],
      energyweekdayschedule: weekdays,
    };
    const res = await create({ urdb: record }).expect(422);
    const message =
      'urdb.energyweekdayschedule[0][12] is 2: a period without rates (urdb.energyratestructure has 2 periods, indexes 0 to 1)';
    expect(res.body).toEqual(errorBody({ detail: message, errors: [{ field: 'urdb.energyweekdayschedule[0][12]', message }] }));
    // The same record naming only its own periods is a TOU tariff.
    const fine = (await create({ urdb: { ...record, energyweekdayschedule: afternoons() } }).expect(201)).body;
    expect(fine).toMatchObject({ rate_type: 'tou', has_tou: true });
  });

  it('checks demand schedules, flatdemandmonths and coincidentschedule alike, every problem listed', async () => {
    const record = {
      ...tiered([{ rate: 0.1 }]),
      demandratestructure: [[{ rate: 12 }]],
      demandweekdayschedule: afternoons(),
      demandweekendschedule: every(0),
      flatdemandstructure: [[{ rate: 5 }]],
      flatdemandmonths: [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0],
      coincidentratestructure: [[{ rate: 3 }]],
      coincidentschedule: every(0).map((row, m) => (m === 6 ? row.map(() => 1) : row)),
    };
    const res = await create({ urdb: record }).expect(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([
      ...Array.from({ length: 12 }, (_, m) => `urdb.demandweekdayschedule[${m}][12]`),
      'urdb.flatdemandmonths[5]',
      'urdb.flatdemandmonths[6]',
      'urdb.flatdemandmonths[7]',
      'urdb.coincidentschedule[6][0]',
    ]);
    expect(res.body.errors[0].message).toBe(
      'urdb.demandweekdayschedule[0][12] is 1: a period without rates (urdb.demandratestructure has 1 period, index 0); so are 5 more hours of this month',
    );
    expect(res.body.errors[12].message).toBe(
      'urdb.flatdemandmonths[5] is 1: a period without rates (urdb.flatdemandstructure has 1 period, index 0)',
    );
    // A schedule of a structure the record does not have names periods without rates too.
    const { demandratestructure: _drop, ...noStructure } = record;
    const orphan = (
      await create({ urdb: { ...noStructure, flatdemandmonths: Array(12).fill(0), coincidentschedule: every(0) } }).expect(422)
    ).body;
    expect(orphan.errors[0]).toEqual({
      field: 'urdb.demandweekdayschedule[0][0]',
      message:
        'urdb.demandweekdayschedule[0][0] is 0: a period without rates (the record has no urdb.demandratestructure); so are 23 more hours of this month',
    });
  });

  it('answers a malformed structure with a 422 at its path, where it was a 500', async () => {
    expect((await create({ urdb: { ...tiered([]), energyratestructure: 5 } }).expect(422)).body.errors[0].field).toBe(
      'urdb.energyratestructure',
    );
    expect((await create({ urdb: { ...tiered([]), energyratestructure: [null] } }).expect(422)).body.errors[0].field).toBe(
      'urdb.energyratestructure[0]',
    );
    expect(
      (await create({ urdb: tiered([{ rate: 0.1, max: 'lots' as unknown as number }, { rate: 0.2 }]) }).expect(422)).body.errors[0],
    ).toEqual({
      field: 'urdb.energyratestructure[0][0].max',
      message: 'urdb.energyratestructure[0][0].max must be a number (leave the key out for none)',
    });
  });

  it('a new version from a URDB record is checked the same way', async () => {
    const created = (await create({ urdb: tiered([{ rate: 0.1 }]), effective_date: '2026-01-01' }).expect(201)).body;
    const res = await as(t, alice)
      .post(`/tariffs/custom/${created.id}/versions`, {
        effective_date: '2026-06-01',
        urdb: tiered([{ rate: 0.1, max: 1000 }, { rate: 0.12, max: 500 }, { rate: 0.15 }]),
      })
      .expect(422);
    expect(res.body.errors[0].field).toBe('urdb.energyratestructure[0][1].max');
    expect((await as(t, alice).get(`/tariffs/${created.id}`).expect(200)).body.versions).toHaveLength(1);
    await as(t, alice)
      .post(`/tariffs/custom/${created.id}/versions`, {
        effective_date: '2026-06-01',
        urdb: tiered([{ rate: 0.1, max: 500 }, { rate: 0.12 }]),
      })
      .expect(201);
  });
});
