import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as } from '../pm/helpers';
import { monthlyWaterRates } from '../fixtures/rates-tariff';

/**
 * Issue 47 item 2 through POST /calculate (pricing README "Monthly charges and usage blocks over a
 * period's length"): a monthly water rate of $4.86 a ccf for the first 20 ccf, $5.94 above and
 * $11.80 a month, priced over a quarter, a bi-monthly read, an 18-day read and a month.
 */
describe('POST /calculate over billing periods of other lengths than a month (issue 47 item 2)', () => {
  let t: TestApp;
  let alice: string;
  let tariffId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    tariffId = (
      await as(t, alice)
        .post('/tariffs/custom', {
          name: 'Residential water (monthly)',
          utility_name: 'Example Water Utility',
          state: 'TX',
          sector: 'residential',
          utility_type: 'water',
          unit: 'ccf',
          effective_date: '2024-01-01',
          ...monthlyWaterRates,
        })
        .expect(201)
    ).body.id;
  });
  afterAll(() => t.stop());

  const calc = async (period_start: string, period_end: string, usage: number) =>
    (await as(t, alice).post('/calculate', { tariff_id: tariffId, usage, unit: 'ccf', period_start, period_end }).expect(200)).body;

  it('a quarter of 90 ccf bills 3 x $11.80 and 60 ccf in the first block: $505.20 (not $524.79)', async () => {
    const bill = await calc('2025-01-01', '2025-03-31', 90);
    // 60 x 4.86 = 291.60 + 30 x 5.94 = 178.20 + 3 x 11.80 = 35.40
    expect(bill).toMatchObject({
      total_cost: 505.2,
      summary: { energy_charge: 469.8, fixed_charge: 35.4 },
      month: 3,
      usage: 90,
      unit: 'ccf',
    });
    expect(bill.assumptions).toContain(
      'billing period of 90 days billed as 3 months (a read within 5 days of 3 average months): monthly charges (fixed, minimum and demand) and usage blocks x 3',
    );
  });

  it('a bi-monthly read of 50 ccf (November 15 to January 14, 61 days) bills 2 months: $277.40', async () => {
    // 40 x 4.86 = 194.40 + 10 x 5.94 = 59.40 + 2 x 11.80 = 23.60
    expect((await calc('2024-11-15', '2025-01-14', 50)).total_cost).toBe(277.4);
  });

  it('an 18-day read of 15 ccf is prorated by 18 / 30.4375 months: $83.30', async () => {
    // 11.80 x 18/30.4375 = 6.98; first block 20 x 18/30.4375 = 11.828 ccf x 4.86 = 57.48; 3.172 ccf x 5.94 = 18.84
    const bill = await calc('2025-01-01', '2025-01-18', 15);
    expect(bill).toMatchObject({ total_cost: 83.3, summary: { fixed_charge: 6.98 } });
  });

  it('a calendar month (31 or 28 days) and a 30-day read price as the month: $168.40 for 30 ccf', async () => {
    // 20 x 4.86 = 97.20 + 10 x 5.94 = 59.40 + 11.80
    for (const [start, end] of [
      ['2025-01-01', '2025-01-31'],
      ['2025-02-01', '2025-02-28'],
      ['2025-09-16', '2025-10-15'],
    ]) {
      expect((await calc(start!, end!, 30)).total_cost).toBe(168.4);
    }
    const month = (
      await as(t, alice).post('/calculate', { tariff_id: tariffId, usage: 30, unit: 'ccf', month: 1, date: '2025-01-15' }).expect(200)
    ).body;
    expect(month.total_cost).toBe(168.4);
  });
});
