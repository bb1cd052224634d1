import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { monthlyWaterRates } from '../fixtures/rates-tariff';

/**
 * Issue 47 item 2 in the bill audit: a water meter read quarterly on a monthly rate ($4.86 a ccf to
 * 20 ccf, $5.94 above, $11.80 a month). The quarter's correct bill, 90 ccf for $505.20 (3 x $11.80
 * and 60 ccf in the first block), is ok; priced as one month it was expected at $524.79 (-3.7 %).
 */
describe('bill audit: a quarterly water read (issue 47 item 2)', () => {
  let t: TestApp;
  let alice: string;
  let propertyId: string;
  let meterId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    const tariff = (
      await as(t, alice)
        .post('/tariffs/custom', {
          name: 'Residential water (monthly)',
          utility_name: 'Example Water Utility',
          state: 'MI',
          sector: 'commercial',
          utility_type: 'water',
          unit: 'ccf',
          effective_date: '2024-01-01',
          ...monthlyWaterRates,
        })
        .expect(201)
    ).body;
    propertyId = (await createProperty(t, alice)).id;
    meterId = (await createMeter(t, alice, propertyId, { utility_type: 'water', unit: 'ccf', tariff_id: tariff.id })).id;
  });
  afterAll(() => t.stop());

  it('the correct quarterly bill is ok, with no finding', async () => {
    const bill = await createBill(t, alice, propertyId, {
      meter_id: meterId,
      usage: 90,
      period_start: '2026-01-01',
      period_end: '2026-03-31',
      amount: 505.2,
    });
    const audit = (await as(t, alice).get(`/pm/bills/${bill.id}/audit`).expect(200)).body;
    expect(audit).toMatchObject({ status: 'ok', billed_amount: 505.2, expected_amount: 505.2, variance: 0, findings: [] });
  });
});
