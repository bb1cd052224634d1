import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser } from '../helpers/users';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';
import { createAuditRepository } from '../../src/modules/audit/repository';

/**
 * Issue 47 item 4: the notifications of one audit run are one digest per property, listing what the
 * run found new and high; a run that finds nothing new says nothing. Harlingen's 2024 water rate
 * (createWaterTariff): 12 kgal in a month is $31.51, and the same in every month of the year.
 */
describe('one digest per property and audit run (issue 47 item 4)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z'), jobs: true });
  });
  afterAll(() => t.stop());

  it('an import over two meters notifies one digest of its four high findings; a later bill notifies only its own', async () => {
    const owner = (await registerUser(t)).token;
    const tariff = (await as(t, owner).post('/tariffs/custom', createWaterTariff).expect(201)).body;
    const propertyId = (await createProperty(t, owner, { name: 'Harbor Lofts', city: 'Harlingen', state: 'TX', zip_code: '78550' })).id;
    for (const [name, account] of [
      ['North riser', 'W-1'],
      ['South riser', 'W-2'],
    ]) {
      await createMeter(t, owner, propertyId, {
        utility_type: 'water',
        unit: 'kgal',
        tariff_id: tariff.id,
        name,
        account_number: account,
      });
    }
    // W-1 January $40.00: +$8.49 (+26.9 %); W-1 February $31.51: ok; W-2 January $40.00: +$8.49, and the same period and amount
    // as W-1's: whichever of the two was written second is also a duplicate_bill of $40.00; W-2 February $34.66: +$3.15 (+10.0 %).
    // Four high findings (a unit price above $31.51 x 1.05 = $33.09 is the price variance's cause again, no finding); at issue per
    // bill the largest: 8.49 + 40.00 + 3.15 = $51.64.
    const csv =
      'account_number,period_start,period_end,usage,amount\n' +
      'W-1,2026-01-01,2026-01-31,12,40.00\nW-1,2026-02-01,2026-02-28,12,31.51\n' +
      'W-2,2026-01-01,2026-01-31,12,40.00\nW-2,2026-02-01,2026-02-28,12,34.66\n';
    await as(t, owner).upload(`/pm/properties/${propertyId}/bills/import`, csv).expect(200);
    const digests = async () =>
      (await as(t, owner).get('/pm/notifications?per_page=100').expect(200)).body.items.filter(
        (n: { type: string }) => n.type === 'bill_audit',
      ) as Array<{ property_id: string; message: string }>;
    await eventually(async () => expect(await digests()).toHaveLength(1));
    const [digest] = await digests();
    expect(digest!.property_id).toBe(propertyId);
    const [head, ...lines] = digest!.message.split('\n');
    expect(head).toBe('Bill audit: Harbor Lofts: 4 new high-severity findings, $51.64 at issue');
    expect(lines).toHaveLength(4);
    expect(lines.filter((l) => / 2026-01-01 to 2026-01-31: /.test(l))).toHaveLength(3);
    expect(lines.filter((l) => l.includes(': the same period and amount as bill '))).toHaveLength(1);
    // Dashboard stats count the same: per bill the largest, summed.
    await eventually(async () => {
      expect((await as(t, owner).get('/pm/dashboard/stats').expect(200)).body).toMatchObject({
        audit_findings_open: 4,
        audit_amount_at_issue: 51.64,
      });
    });
    expect(lines.find((l) => l.startsWith('- South riser, 2026-02-01'))).toMatch(
      /^- South riser, 2026-02-01 to 2026-02-28: billed \$34\.66, expected \$31\.51 on Residential water, inside city \(5\/8" meter\): \+\$3\.15 \(\+10 %\)/,
    );

    // A bill in order (W-1 March, $31.51) re-audits W-1: nothing new, no notification. W-1 April at $40.00: one digest of its two.
    const meters = (await as(t, owner).get(`/pm/properties/${propertyId}/meters`).expect(200)).body;
    const north = (meters.items ?? meters).find((m: { name: string }) => m.name === 'North riser').id;
    const bill = (periodStart: string, periodEnd: string, amount: number) =>
      as(t, owner)
        .post(`/pm/properties/${propertyId}/bills`, {
          meter_id: north,
          usage: 12,
          amount,
          period_start: periodStart,
          period_end: periodEnd,
        })
        .expect(201);
    await bill('2026-03-01', '2026-03-31', 31.51);
    await bill('2026-04-01', '2026-04-30', 40);
    await eventually(async () => {
      const all = await digests();
      expect(all).toHaveLength(2);
      expect(all.map((d) => d.message.split('\n')[0])).toContain('Bill audit: Harbor Lofts: 1 new high-severity finding, $8.49 at issue');
    });
  });

  it('a meter-level cause stated on its first bill is among the findings of every bill it covers', async () => {
    const owner = (await registerUser(t)).token;
    const propertyId = (await createProperty(t, owner)).id;
    const meterId = (await as(t, owner).post(`/pm/properties/${propertyId}/meters`, { utility_type: 'water', unit: 'kgal' }).expect(201))
      .body.id;
    const post = async (periodStart: string, periodEnd: string) =>
      (
        await createBill(t, owner, propertyId, {
          meter_id: meterId,
          usage: 12,
          amount: 31.51,
          period_start: periodStart,
          period_end: periodEnd,
        })
      ).id;
    const [jan, feb, mar] = [
      await post('2026-01-01', '2026-01-31'),
      await post('2026-02-01', '2026-02-28'),
      await post('2026-03-01', '2026-03-31'),
    ];
    const repo = createAuditRepository(t.deps.database.db);
    // The queued audits first (they would remove a finding they do not find), then a cause over January and February stored as an audit would.
    await eventually(async () => expect(await repo.auditOf(mar!)).not.toBeNull());
    const { readAt, inputs } = await repo.metersInput([meterId]);
    const bills = [
      { bill_id: jan, period_start: '2026-01-01', period_end: '2026-01-31' },
      { bill_id: feb, period_start: '2026-02-01', period_end: '2026-02-28' },
    ];
    const audits = [jan!, feb!, mar!].map((billId) => ({
      billId,
      status: 'unpriceable' as const,
      reason: 'the water meter has no tariff',
      expectedCents: null,
      varianceCents: null,
      variancePercent: null,
      tariffId: null,
      expectedLines: null,
      basis: null,
      basisNote: null,
      findings:
        billId === jan
          ? [
              {
                billId,
                reason: 'expired_tariff' as const,
                severity: 'medium' as const,
                amountCents: null,
                message: 'W-1 expired',
                details: { bills },
              },
            ]
          : [],
    }));
    await repo.store([{ ownerId: inputs[0]!.property.ownerId, propertyId, meterId, audits }], readAt, new Date());
    const reasonsOf = async (billId: string) => (await repo.findingsOfBill(billId)).map((f) => [f.billId, f.reason]);
    expect(await reasonsOf(jan!)).toEqual([[jan, 'expired_tariff']]);
    expect(await reasonsOf(feb!)).toEqual([[jan, 'expired_tariff']]);
    expect(await reasonsOf(mar!)).toEqual([]);
  });
});
