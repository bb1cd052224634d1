import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser } from '../helpers/users';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';
import { runScheduleTick } from '../../src/platform/scheduler';
import { rootCause } from '../../src/platform/db/errors';
import { appSchedules } from '../../src/schedules';
import { errorAnswer, errorBody } from '../helpers/error-body';

/** Where Harlingen Waterworks' water rate (createWaterTariff, TX) is taken. */
const HARLINGEN = { city: 'Harlingen', state: 'TX', zip_code: '78550' };

type Finding = {
  id: string;
  bill_id: string;
  reason: string;
  status: string;
  amount_at_issue: number | null;
  dispute: Record<string, unknown> | null;
};

/**
 * Issue 47 item 10: a finding disputed with the utility, then credited or denied, and the money
 * claimed, recovered and written off. Harlingen's 2024 water rate bills 12 kgal in a month
 * 3 x 1.30 + 7 x 1.80 + 2 x 2.55 + 9.91 = $31.51 (audit README "Re-pricing").
 */
describe('disputes and recovered money (issue 47 item 10)', () => {
  let t: TestApp;
  let alice: string;
  let tariffId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-08-20T12:00:00Z'), jobs: true });
    alice = (await registerUser(t)).token;
    tariffId = (await as(t, alice).post('/tariffs/custom', createWaterTariff).expect(201)).body.id;
  });
  afterAll(() => t.stop());

  /** A Harlingen property with a water meter on the rate. */
  async function waterProperty(name: string) {
    const property = (await createProperty(t, alice, { ...HARLINGEN, name })).id;
    const meter = (await createMeter(t, alice, property, { utility_type: 'water', unit: 'kgal', tariff_id: tariffId })).id;
    return { property, meter };
  }
  const bill = async (p: { property: string; meter: string }, period_start: string, period_end: string, amount: number) =>
    (await createBill(t, alice, p.property, { meter_id: p.meter, usage: 12, period_start, period_end, amount })).id;
  const audit = async (billId: string) => (await as(t, alice).get(`/pm/bills/${billId}/audit`).expect(200)).body;
  const priceFinding = async (billId: string): Promise<Finding> =>
    (await audit(billId)).findings.find((f: Finding) => f.reason === 'price_variance');

  let palm: { property: string; meter: string };
  let resaca: { property: string; meter: string };
  let januaryFinding: Finding;
  let march: string;
  let aprilFinding: Finding;

  it('a dispute from finding to credit (README worked example): the bill carrying the credit is expected with it, and no finding arises from it', async () => {
    palm = await waterProperty('Palm Court');
    // January billed $34.66: +$3.15 over $31.51, a price_variance of $3.15 at issue.
    const january = await bill(palm, '2026-01-01', '2026-01-31', 34.66);
    januaryFinding = await priceFinding(january);
    expect(januaryFinding).toMatchObject({ amount_at_issue: 3.15, status: 'open', dispute: null });

    const disputed = (
      await as(t, alice)
        .post(`/pm/audit/findings/${januaryFinding.id}/dispute`, {
          disputed_on: '2026-02-10',
          claim_reference: '44-1182',
          amount_claimed: 3.15,
          note: 'Filed by phone',
        })
        .expect(200)
    ).body;
    expect(disputed).toMatchObject({
      status: 'disputed',
      note: 'Filed by phone',
      dispute: {
        disputed_on: '2026-02-10',
        claim_reference: '44-1182',
        amount_claimed: 3.15,
        amount_credited: null,
        credit_bill_id: null,
        closed_on: null,
        written_off: 0,
      },
    });

    // The utility credits $3.15 on March's bill: 31.51 - 3.15 = $28.36. Before the credit is recorded, March is a price
    // variance of -$3.15 (-10.0 %).
    await bill(palm, '2026-02-01', '2026-02-28', 31.51);
    march = await bill(palm, '2026-03-01', '2026-03-31', 28.36);
    expect(await priceFinding(march)).toMatchObject({ amount_at_issue: -3.15 });
    const credited = (
      await as(t, alice)
        .post(`/pm/audit/findings/${januaryFinding.id}/credit`, {
          amount_credited: 3.15,
          credit_bill_id: march,
          closed_on: '2026-03-20',
        })
        .expect(200)
    ).body;
    expect(credited).toMatchObject({
      status: 'credited',
      note: 'Filed by phone',
      dispute: { amount_claimed: 3.15, amount_credited: 3.15, credit_bill_id: march, closed_on: '2026-03-20', written_off: 0 },
    });
    // March's audit expects 31.51 - 3.15 = $28.36: ok, with the credit as a line of its own, and no finding at all
    // (neither a price variance nor a unit price under the tariff's, nor a drop in cost).
    await eventually(async () => {
      const res = await audit(march);
      expect(res).toMatchObject({ status: 'ok', billed_amount: 28.36, expected_amount: 28.36, variance: 0, findings: [] });
      expect(res.expected_line_items.at(-1)).toEqual({ category: 'other', name: 'Credit on dispute 44-1182', amount: -3.15 });
    });
    expect(
      (await as(t, alice).get(`/pm/audit/findings?status=credited&property_id=${palm.property}`).expect(200)).body.items.map(
        (f: Finding) => f.id,
      ),
    ).toEqual([januaryFinding.id]);
  });

  it('a denied dispute writes its claim off; a credit below the claim writes off the rest', async () => {
    // April billed $40.00: +$8.49 (+26.9 %).
    const april = await bill(palm, '2026-04-01', '2026-04-30', 40);
    aprilFinding = await priceFinding(april);
    await as(t, alice)
      .post(`/pm/audit/findings/${aprilFinding.id}/dispute`, { disputed_on: '2026-06-01', claim_reference: 'W-2291', amount_claimed: 8.49 })
      .expect(200);

    // November 2025 billed $40.00, claimed in 2025, denied in 2026: $8.49 written off in 2025's row.
    const november = await priceFinding(await bill(palm, '2025-11-01', '2025-11-30', 40));
    await as(t, alice)
      .post(`/pm/audit/findings/${november.id}/dispute`, { disputed_on: '2025-12-10', claim_reference: 'W-1001', amount_claimed: 8.49 })
      .expect(200);
    const denied = (
      await as(t, alice).post(`/pm/audit/findings/${november.id}/deny`, { closed_on: '2026-01-15', note: 'Read was actual' }).expect(200)
    ).body;
    expect(denied).toMatchObject({
      status: 'denied',
      note: 'Read was actual',
      dispute: { amount_credited: null, closed_on: '2026-01-15', written_off: 8.49 },
    });

    // Another property: June billed $40.00, claimed $8.49, credited $5.00 on July's bill (31.51 - 5.00 = $26.51): $3.49 written off.
    resaca = await waterProperty('=Resaca Flats');
    const june = await priceFinding(await bill(resaca, '2026-06-01', '2026-06-30', 40));
    const july = await bill(resaca, '2026-07-01', '2026-07-31', 26.51);
    await as(t, alice)
      .post(`/pm/audit/findings/${june.id}/dispute`, { disputed_on: '2026-07-02', claim_reference: 'R-77', amount_claimed: 8.49 })
      .expect(200);
    const partial = (
      await as(t, alice).post(`/pm/audit/findings/${june.id}/credit`, { amount_credited: 5, credit_bill_id: july }).expect(200)
    ).body;
    // closed_on defaults to today (the service's clock: 2026-08-20).
    expect(partial.dispute).toMatchObject({ amount_claimed: 8.49, amount_credited: 5, closed_on: '2026-08-20', written_off: 3.49 });
    await eventually(async () =>
      expect(await audit(july)).toMatchObject({ status: 'ok', expected_amount: 26.51, variance: 0, findings: [] }),
    );
  });

  it('dashboard stats and the CSV report: money claimed, recovered and written off per property and year', async () => {
    // Claimed 8.49 (Nov 2025) + 3.15 (Jan) + 8.49 (Apr) + 8.49 (Jun) = $28.62; recovered 3.15 + 5.00 = $8.15; written off
    // 8.49 (denied) + 3.49 (8.49 - 5.00) = $11.98; pending 8.49 (April's open claim): 8.15 + 11.98 + 8.49 = 28.62.
    const stats = (await as(t, alice).get('/pm/dashboard/stats').expect(200)).body;
    expect(stats).toMatchObject({ audit_amount_claimed: 28.62, audit_amount_recovered: 8.15, audit_amount_written_off: 11.98 });
    // Newest year first, then by name ('=' sorts before letters).
    expect(stats.audit_recovery).toEqual([
      {
        property_id: resaca.property,
        property_name: '=Resaca Flats',
        year: 2026,
        disputes: 1,
        claimed: 8.49,
        recovered: 5,
        written_off: 3.49,
        pending: 0,
      },
      {
        property_id: palm.property,
        property_name: 'Palm Court',
        year: 2026,
        disputes: 2,
        claimed: 11.64,
        recovered: 3.15,
        written_off: 0,
        pending: 8.49,
      },
      {
        property_id: palm.property,
        property_name: 'Palm Court',
        year: 2025,
        disputes: 1,
        claimed: 8.49,
        recovered: 0,
        written_off: 8.49,
        pending: 0,
      },
    ]);

    const csv = await as(t, alice).get('/pm/audit/recovery/export.csv').expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename=audit-recovery.csv');
    // A property name a spreadsheet would run as a formula gets a leading apostrophe (src/platform/csv.ts).
    expect(csv.text).toBe(
      'year,property_id,property_name,disputes,claimed,recovered,written_off,pending\r\n' +
        `2026,${resaca.property},'=Resaca Flats,1,8.49,5.00,3.49,0.00\r\n` +
        `2026,${palm.property},Palm Court,2,11.64,3.15,0.00,8.49\r\n` +
        `2025,${palm.property},Palm Court,1,8.49,0.00,8.49,0.00\r\n`,
    );
    expect((await as(t, alice).get(`/pm/audit/recovery/export.csv?year=2025&property_id=${palm.property}`).expect(200)).text).toBe(
      `year,property_id,property_name,disputes,claimed,recovered,written_off,pending\r\n2025,${palm.property},Palm Court,1,8.49,0.00,8.49,0.00\r\n`,
    );
    await as(t, alice).get('/pm/audit/recovery/export.csv?year=0').expect(422);
  });

  it('refuses bad claims and credits with a 422 naming the field, and illegal transitions with a 409', async () => {
    const may = await priceFinding(await bill(palm, '2026-05-01', '2026-05-31', 40)); // +$8.49
    const dispute = (body: Record<string, unknown>) =>
      as(t, alice).post(`/pm/audit/findings/${may.id}/dispute`, {
        disputed_on: '2026-06-05',
        claim_reference: 'W-3000',
        amount_claimed: 8.49,
        ...body,
      });
    const refused = async (body: Record<string, unknown>, field: string, detail: string) => {
      const res = await dispute(body).expect(422);
      expect(res.body).toEqual(errorBody({ detail, errors: [{ field, message: detail }] }));
    };
    await refused({ amount_claimed: 8.5 }, 'amount_claimed', 'amount_claimed must not exceed the amount at issue ($8.49)');
    await refused({ disputed_on: '2026-08-21' }, 'disputed_on', 'disputed_on must not be after today (2026-08-20)');
    await refused({ disputed_on: '2026-05-30' }, 'disputed_on', "disputed_on must not be before the end of the bill's period (2026-05-31)");
    for (const body of [
      { amount_claimed: 0 },
      { amount_claimed: -1 },
      { amount_claimed: 1.234 },
      { claim_reference: '' },
      { claim_reference: '   ' },
      { claim_reference: 'x'.repeat(101) },
      { disputed_on: '2026-02-30' },
      { amount_claimed: '8.49' },
    ]) {
      await dispute(body).expect(422);
    }
    await as(t, alice)
      .post(`/pm/audit/findings/${may.id}/dispute`, { claim_reference: 'W-3000', amount_claimed: 1 })
      .expect(422)
      .expect(errorAnswer({ detail: 'field required', errors: [{ field: 'disputed_on', message: 'field required' }] }));
    // None of these moved it: still open.
    expect((await priceFinding(may.bill_id)).status).toBe('open');

    // Closing a finding that is not in dispute, and resolving or disputing one that is: 409 with the error body.
    await as(t, alice)
      .post(`/pm/audit/findings/${may.id}/credit`, { amount_credited: 1, credit_bill_id: march })
      .expect(409)
      .expect(errorAnswer({ detail: 'the finding is open: only a disputed finding can be credited' }));
    await as(t, alice)
      .post(`/pm/audit/findings/${may.id}/deny`, {})
      .expect(409)
      .expect(errorAnswer({ detail: 'the finding is open: only a disputed finding can be denied' }));
    await dispute({}).expect(200);
    await dispute({})
      .expect(409)
      .expect(errorAnswer({ detail: 'the finding is disputed: only an open finding can be disputed' }));
    await as(t, alice)
      .post(`/pm/audit/findings/${may.id}/resolve`, { resolution: 'accepted' })
      .expect(409)
      .expect(errorAnswer({ detail: 'the finding is disputed: a dispute closes as credited or denied' }));
    await as(t, alice)
      .post(`/pm/audit/findings/${januaryFinding.id}/deny`, {})
      .expect(409)
      .expect(errorAnswer({ detail: 'the finding is credited: only a disputed finding can be denied' }));
    await as(t, alice)
      .post(`/pm/audit/findings/${januaryFinding.id}/credit`, { amount_credited: 1, credit_bill_id: march })
      .expect(409)
      .expect(errorAnswer({ detail: 'the finding is credited: only a disputed finding can be credited' }));
    const accepted = await priceFinding(await bill(palm, '2026-06-01', '2026-06-30', 40));
    await as(t, alice).post(`/pm/audit/findings/${accepted.id}/resolve`, { resolution: 'accepted' }).expect(200);
    await as(t, alice)
      .post(`/pm/audit/findings/${accepted.id}/dispute`, { disputed_on: '2026-08-01', claim_reference: 'x', amount_claimed: 1 })
      .expect(409)
      .expect(errorAnswer({ detail: 'the finding is resolved: only an open finding can be disputed' }));

    // Credits: at most the claim, on a later bill of the same meter, closed between the dispute and today.
    const credit = (body: Record<string, unknown>) =>
      as(t, alice).post(`/pm/audit/findings/${may.id}/credit`, { amount_credited: 8.49, credit_bill_id: march, ...body });
    const otherMeter = (await as(t, alice).get(`/pm/audit/findings?property_id=${resaca.property}`).expect(200)).body.items[0].bill_id;
    const refusedCredit = async (body: Record<string, unknown>, field: string, detail: string) =>
      expect((await credit(body).expect(422)).body).toEqual(errorBody({ detail, errors: [{ field, message: detail }] }));
    await refusedCredit({ amount_credited: 8.5 }, 'amount_credited', 'amount_credited must not exceed the amount claimed ($8.49)');
    await refusedCredit({ credit_bill_id: otherMeter }, 'credit_bill_id', "credit_bill_id must be a bill of the disputed bill's meter");
    await refusedCredit({ credit_bill_id: 'no-such-bill' }, 'credit_bill_id', "credit_bill_id must be a bill of the disputed bill's meter");
    // March ends before the dispute of June 5.
    await refusedCredit({}, 'credit_bill_id', "the credit's bill must end after the dispute was filed (2026-06-05)");
    const julyPalm = await bill(palm, '2026-07-01', '2026-07-31', 23.02);
    await refusedCredit(
      { credit_bill_id: julyPalm, closed_on: '2026-08-21' },
      'closed_on',
      'closed_on must not be after today (2026-08-20)',
    );
    await refusedCredit(
      { credit_bill_id: julyPalm, closed_on: '2026-06-04' },
      'closed_on',
      'closed_on must not be before the dispute (2026-06-05)',
    );
    await credit({ credit_bill_id: julyPalm, amount_credited: 0 }).expect(422);
    await as(t, alice).post(`/pm/audit/findings/${may.id}/deny`, { closed_on: '2026-06-04' }).expect(422);
    expect((await priceFinding(may.bill_id)).status).toBe('disputed');
    // 31.51 - 8.49 = $23.02 on July's bill: credited, and July's bill is expected with it.
    await credit({ credit_bill_id: julyPalm }).expect(200);
    await eventually(async () => expect(await audit(julyPalm)).toMatchObject({ status: 'ok', expected_amount: 23.02, findings: [] }));
  });

  it('the database holds the invariants, and of two denials sent at once exactly one wins', async () => {
    const db = t.deps.database.db;
    const refusedBy = async (query: ReturnType<typeof sql>) =>
      db.execute(query).then(
        () => 'stored',
        (err: unknown) => rootCause(err)?.constraint,
      );
    // A credited finding without its credit, a credit above the claim, a claim above the overcharge at issue: refused.
    expect(
      await refusedBy(sql`update audit_findings set status = 'credited', dispute_closed_on = '2026-08-01' where id = ${aprilFinding.id}`),
    ).toBe('audit_findings_credit_check');
    expect(
      await refusedBy(
        sql`update audit_findings set status = 'credited', credit_cents = 850, dispute_closed_on = '2026-08-01' where id = ${aprilFinding.id}`,
      ),
    ).toBe('audit_findings_credit_check');
    expect(await refusedBy(sql`update audit_findings set amount_claimed_cents = 850 where id = ${aprilFinding.id}`)).toBe(
      'audit_findings_dispute_check',
    );
    expect(await refusedBy(sql`update audit_findings set status = 'open' where id = ${aprilFinding.id}`)).toBe(
      'audit_findings_dispute_check',
    );

    const september = await priceFinding(await bill(palm, '2026-08-01', '2026-08-10', 40));
    await as(t, alice)
      .post(`/pm/audit/findings/${september.id}/dispute`, { disputed_on: '2026-08-12', claim_reference: 'W-4000', amount_claimed: 1 })
      .expect(200);
    const answers = await Promise.all([
      as(t, alice).post(`/pm/audit/findings/${september.id}/deny`, {}),
      as(t, alice).post(`/pm/audit/findings/${september.id}/deny`, {}),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("another owner's finding is not found, and their report holds none of it", async () => {
    const bob = (await registerUser(t)).token;
    const notFound = errorAnswer({ detail: 'Finding not found' });
    await as(t, bob)
      .post(`/pm/audit/findings/${aprilFinding.id}/dispute`, { disputed_on: '2026-06-01', claim_reference: 'x', amount_claimed: 1 })
      .expect(404)
      .expect(notFound);
    await as(t, bob)
      .post(`/pm/audit/findings/${aprilFinding.id}/credit`, { amount_credited: 1, credit_bill_id: march })
      .expect(404)
      .expect(notFound);
    await as(t, bob).post(`/pm/audit/findings/${aprilFinding.id}/deny`, {}).expect(404).expect(notFound);
    expect((await as(t, bob).get('/pm/audit/recovery/export.csv').expect(200)).text).toBe(
      'year,property_id,property_name,disputes,claimed,recovered,written_off,pending\r\n',
    );
    expect((await as(t, bob).get('/pm/dashboard/stats').expect(200)).body).toMatchObject({
      audit_amount_claimed: 0,
      audit_amount_recovered: 0,
      audit_amount_written_off: 0,
      audit_recovery: [],
    });
  });

  it('a dispute open more than 60 days is a notification, once, from the daily job', async () => {
    const schedule = appSchedules.find((s) => s.name === 'audit-dispute-reminders')!;
    expect(schedule.queue).toBe('audit-dispute-reminders');
    const reminders = async () =>
      (await as(t, alice).get('/pm/notifications?per_page=100').expect(200)).body.items
        .filter((n: { type: string }) => n.type === 'audit_dispute_overdue')
        .map((n: { message: string }) => n.message);
    // April's claim W-2291 was filed 2026-06-01: on July 31 it is 60 days old (not yet), on August 1 61 days.
    // (May's claim of June 5 was credited; the others are closed.)
    const tick = async (at: string) => {
      const { jobId } = await runScheduleTick(t.deps.queue, schedule, new Date(at));
      return jobId;
    };
    expect(await tick('2026-07-31T06:40:00Z')).toBe('audit-dispute-reminders@20260731T0640Z');
    expect(await t.services.audit.disputes.remindOverdue('2026-07-31')).toBe(0);
    expect(await reminders()).toEqual([]);
    await tick('2026-08-01T06:40:00Z');
    const expected =
      'Dispute unanswered: Palm Court, Water meter, 2026-04-01 to 2026-04-30: claim W-2291 for $8.49 filed 2026-06-01, open for 61 days';
    await eventually(async () => expect(await reminders()).toEqual([expected]));
    // The next days' jobs find it notified already: one notification per dispute.
    await tick('2026-08-02T06:40:00Z');
    expect(await t.services.audit.disputes.remindOverdue('2026-08-03')).toBe(0);
    expect(await reminders()).toEqual([expected]);
  });
});
