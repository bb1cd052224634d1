import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { registerUser } from '../helpers/users';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { createWaterTariff } from '../../src/modules/tariffs/custom/examples';

/**
 * Issue 47 item 3: a water bill typed with gallons as kgal is a likely_unit_error, not millions of
 * dollars at issue; no finding's dollars exceed the bill; the dashboard's and health's totals never
 * sum a likely unit error. Harlingen's 2024 water rate (createWaterTariff): 3 kgal at $1.30, 7 at
 * $1.80, 10 at $2.55, the rest at $3.05, and $9.91 a month: 12 kgal is $31.51.
 */
describe('likely unit errors and dollars at issue (issue 47 item 3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z'), jobs: true });
  });
  afterAll(() => t.stop());

  it('gallons typed as kgal: one likely_unit_error naming 1,000, outside the totals; a bill under its price is at most its own amount at issue', async () => {
    const owner = (await registerUser(t)).token;
    const tariff = (await as(t, owner).post('/tariffs/custom', createWaterTariff).expect(201)).body;
    const propertyId = (await createProperty(t, owner, { city: 'Harlingen', state: 'TX', zip_code: '78550' })).id;
    const meterId = (await createMeter(t, owner, propertyId, { utility_type: 'water', unit: 'kgal', tariff_id: tariff.id })).id;
    const bill = async (periodStart: string, periodEnd: string, usage: number, amount: number) =>
      await createBill(t, owner, propertyId, {
        meter_id: meterId,
        usage,
        amount,
        period_start: periodStart,
        period_end: periodEnd,
      });
    await bill('2026-01-01', '2026-01-31', 12, 31.51);
    await bill('2026-02-01', '2026-02-28', 12, 31.51);
    await bill('2026-03-01', '2026-03-31', 12, 31.51);
    // 12,000 gallons typed as 12,000 kgal: 3.90 + 12.60 + 25.50 + 11,980 x 3.05 = 36,539.00, usage charges $36,581.00, $36,590.91 in
    // all. Billed $31.51: usage charges 31.51 - 9.91 = $21.60, 1/1,693.6 of the tariff's (near 1/1,000). Before, a price variance of
    // 31.51 - 36,590.91 = -$36,559.40 was at issue.
    const typo = await bill('2026-04-01', '2026-04-30', 12000, 31.51);
    // 12 kgal billed $10.00: -$21.51 (-68.3 %), at most the bill's $10.00 at issue (its unit price below the year's least is
    // the same cause: no second finding). Usage charges $0.09 against $21.60 (1/240) are near no power of ten: no unit error.
    const under = await bill('2026-05-01', '2026-05-31', 12, 10);

    await eventually(async () => {
      const open = (await as(t, owner).get(`/pm/audit/findings?meter_id=${meterId}&status=open`).expect(200)).body;
      expect(
        open.items
          .map((f: { bill_id: string; reason: string; severity: string; amount_at_issue: number | null }) => [
            f.bill_id,
            f.reason,
            f.severity,
            f.amount_at_issue,
          ])
          .sort((a: string[], b: string[]) => a[1]!.localeCompare(b[1]!)),
      ).toEqual([
        [typo.id, 'likely_unit_error', 'medium', null],
        [under.id, 'price_variance', 'high', -10],
      ]);
      const unitError = open.items.find((f: { reason: string }) => f.reason === 'likely_unit_error');
      expect(unitError.message).toBe(
        '12,000 kgal looks 1,000 times too large (a unit error?): its usage charges ($21.60) are 1/1,694 of what ' +
          'Residential water, inside city (5/8" meter) charges for 12,000 kgal ($36581.00); as 12 kgal the bill can be audited, and until then its price is not',
      );
      expect(unitError.details).toMatchObject({ factor: 1000, direction: 'too_large', basis: 'unit_price', corrected_usage: 12 });
      expect(open.items.find((f: { reason: string }) => f.reason === 'price_variance').message).toMatch(
        /^billed \$10\.00, expected \$31\.51 on .*: -\$21\.51 \(-68\.3 %\)/,
      );
    });
    // The typo's audit: not priced until its usage is corrected.
    expect((await as(t, owner).get(`/pm/bills/${typo.id}/audit`).expect(200)).body).toMatchObject({
      status: 'unpriceable',
      reason: 'the usage looks 1000 times too large (likely_unit_error)',
      expected_amount: null,
      variance: null,
    });
    // Totals: 2 open findings; at issue only May's $10.00, never the unit error's bill.
    await eventually(async () => {
      expect((await as(t, owner).get('/pm/dashboard/stats').expect(200)).body).toMatchObject({
        audit_findings_open: 2,
        audit_amount_at_issue: 10,
      });
      const health = (await as(t, owner).get('/pm/properties/health').expect(200)).body;
      const item = health.properties.find((h: { property_id: string }) => h.property_id === propertyId);
      expect(item.issues).toContain('1 open high-severity bill audit finding: $10.00 at issue');
    });
  });

  it('the OpenAPI document lists likely_unit_error among the finding reasons', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body as { paths: Record<string, { get?: unknown }> };
    const findings = Object.entries(doc.paths).find(([path]) => path.endsWith('/pm/audit/findings'))![1];
    expect(JSON.stringify(findings.get)).toContain('"likely_unit_error"');
  });
});
