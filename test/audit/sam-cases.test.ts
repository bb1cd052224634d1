import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { CASES, IDS, LABELS } from '../fixtures/engine-cases';

const pad = (n: number) => String(n).padStart(2, '0');
/**
 * Issue 45 item 7: a property's tariff is of its state, so each case's property is in its tariff's
 * state (a ZIP code of that state) rather than the helper's Gladstone, MI.
 */
const ZIP_OF_STATE: Record<string, string> = {
  KY: '40507',
  LA: '70112',
  TN: '37201',
  IN: '46402',
  SC: '29180',
  NE: '68057',
  CA: '91770',
  PA: '18614',
  WY: '82801',
};
/** The month's days (the engine's: February has 28). */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Issue 32's figure: over the hand-worked SAM oracle cases a bill could carry (usage and demand of a
 * whole calendar month; no usage profile), a bill at the engine's amount is `ok`, and the same bill
 * 10 % higher is a price_variance of +10 % with its dollars at issue.
 */
describe('bill audit over the SAM oracle cases (issue 32)', () => {
  let t: TestApp;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    await seedTariffs(t.deps.database, LABELS);
    alice = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const billable = CASES.filter(
    (c) => c.total !== undefined && c.body.usage_profile === undefined && c.body.tax_rate_percent === undefined,
  );

  it('covers the cases', () => {
    expect(billable.length).toBeGreaterThanOrEqual(15);
  });

  it.each(billable.map((c, i) => [i, c] as const))('case %i: at the engine amount ok, 10 %% higher a +10 %% finding', async (_i, c) => {
    const { state } = (await as(t, alice).get(`/tariffs/${IDS[c.tariff]}`).expect(200)).body as { state: string };
    const p = await createProperty(t, alice, { tariff_id: IDS[c.tariff], state, zip_code: ZIP_OF_STATE[state] });
    const meter = await createMeter(t, alice, p.id, { utility_type: 'electric' });
    const month = c.body.month;
    const record = async (year: number, amount: number) =>
      await createBill(t, alice, p.id, {
        meter_id: meter.id,
        period_start: `${year}-${pad(month)}-01`,
        period_end: `${year}-${pad(month)}-${DAYS[month - 1]}`,
        amount,
        usage_kwh: c.body.usage_kwh,
        demand_kw: c.body.demand_kw ?? null,
      });
    const exact = await record(2024, c.total!);
    const exactAudit = (await as(t, alice).get(`/pm/bills/${exact.id}/audit`).expect(200)).body;
    expect(exactAudit).toMatchObject({ status: 'ok', expected_amount: c.total, variance: 0 });

    const higherCents = Math.round(c.total! * 110);
    const higher = await record(2025, higherCents / 100);
    const audit = (await as(t, alice).get(`/pm/bills/${higher.id}/audit`).expect(200)).body;
    const expectedCents = Math.round(c.total! * 100);
    expect(audit).toMatchObject({ status: 'variance', expected_amount: c.total, variance: (higherCents - expectedCents) / 100 });
    // 10 % to one decimal (the bill rounds to the cent, so a small total lands at 9.9 to 10.1 %).
    expect(Math.abs(audit.variance_percent - 10)).toBeLessThanOrEqual(0.1 + 100 / expectedCents);
    expect(audit.findings).toContainEqual(
      expect.objectContaining({ reason: 'price_variance', amount_at_issue: (higherCents - expectedCents) / 100 }),
    );
  });
});
