import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { allYear } from '../fixtures/rates-tariff';

/**
 * Issue 47 item 1: a gas meter on a utility's delivery tariff that buys its gas from a marketer
 * (`supply_tariff_id`) is re-priced with both, as an electric meter is (audit README "Re-pricing").
 * 830 therms in January: delivery 830 x 0.26 = 215.80 + 15.00 = 230.80; supply 830 x 0.59 = 489.70
 * + 9.31 = 499.01; the bill $729.81. Priced on delivery alone it was $230.80, a +216.2 % finding.
 */
describe('bill audit: a gas meter with a supply contract (issue 47 item 1)', () => {
  let t: TestApp;
  let alice: string;
  let propertyId: string;
  let meterId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    const gas = { utility_type: 'gas', unit: 'therms', state: 'MI', sector: 'commercial' };
    const delivery = (
      await as(t, alice)
        .post('/tariffs/custom', {
          ...gas,
          name: 'Gas delivery service',
          utility_name: 'Example Gas Utility',
          service_type: 'delivery_only',
          effective_date: '2025-01-01',
          energy_rates: [{ ...allYear, rate_per_unit: 0.26 }],
          fixed_charges: [{ name: 'Customer charge', amount: 15, frequency: 'monthly' }],
        })
        .expect(201)
    ).body;
    const supply = (
      await as(t, alice)
        .post('/tariffs/custom', {
          ...gas,
          name: 'Fixed-price gas supply',
          utility_name: 'Example Gas Marketer',
          service_type: 'supply_only',
          effective_date: '2025-01-01',
          energy_rates: [{ ...allYear, rate_per_unit: 0.59 }],
          fixed_charges: [{ name: 'Account fee', amount: 9.31, frequency: 'monthly' }],
        })
        .expect(201)
    ).body;
    propertyId = (await createProperty(t, alice)).id;
    meterId = (
      await createMeter(t, alice, propertyId, {
        utility_type: 'gas',
        unit: 'therms',
        tariff_id: delivery.id,
        supply_tariff_id: supply.id,
      })
    ).id;
  });
  afterAll(() => t.stop());

  it('a correct bill ($230.80 delivery + $499.01 supply) is ok, with no price finding', async () => {
    const bill = await createBill(t, alice, propertyId, {
      meter_id: meterId,
      usage: 830,
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      amount: 729.81,
    });
    const audit = (await as(t, alice).get(`/pm/bills/${bill.id}/audit`).expect(200)).body;
    expect(audit).toMatchObject({ status: 'ok', billed_amount: 729.81, expected_amount: 729.81, variance: 0, findings: [] });
    expect(audit.expected_line_items.map((l: { name: string; amount: number }) => [l.name, l.amount])).toEqual([
      ['Usage all_year: 830 therms x $0.26/therms (31/31 days in January)', 215.8],
      ['Customer charge: $15/month (31/31 days in January)', 15],
      ['Supply: Usage all_year: 830 therms x $0.59/therms (31/31 days in January)', 489.7],
      ['Supply: Account fee: $9.31/month (31/31 days in January)', 9.31],
    ]);
  });
});
