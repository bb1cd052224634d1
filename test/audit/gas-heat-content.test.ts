import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createMeter, createProperty } from '../pm/helpers';
import { errorAnswer } from '../helpers/error-body';
import { allYear } from '../fixtures/rates-tariff';

/** A gas rate billed per therm: $0.90 a therm and a $12.00 customer charge a month. */
const THERM_RATE = {
  name: 'Commercial gas, per therm',
  utility_name: 'Prairie Gas',
  sector: 'commercial',
  utility_type: 'gas',
  unit: 'therms',
  effective_date: '2024-01-01',
  energy_rates: [{ ...allYear, tier: 1, tier_max: null, rate_per_unit: 0.9 }],
  fixed_charges: [{ name: 'Customer charge', amount: 12, frequency: 'monthly' }],
};

/**
 * Issue 47 item 6: a gas bill read in ccf on a therm tariff carries the heat content it prints
 * (therms per ccf), and the audit converts with it (audit README "Re-pricing", bills README "Gas heat content").
 */
describe('gas heat content on bills (issue 47 item 6)', () => {
  let t: TestApp;
  let alice: string;
  let propertyId: string;
  let gasMeter: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    const tariff = (await as(t, alice).post('/tariffs/custom', THERM_RATE).expect(201)).body;
    propertyId = (await createProperty(t, alice)).id;
    gasMeter = (await createMeter(t, alice, propertyId, { utility_type: 'gas', unit: 'ccf', tariff_id: tariff.id })).id;
  });
  afterAll(() => t.stop());

  const bill = (body: Record<string, unknown>) =>
    as(t, alice).post(`/pm/properties/${propertyId}/bills`, { meter_id: gasMeter, usage: 100, ...body });
  const audit = async (billId: string) => (await as(t, alice).get(`/pm/bills/${billId}/audit`).expect(200)).body;

  it('prices 100 ccf at 1.037 therms per ccf: 103.7 therms x $0.90 + $12.00 = $105.33', async () => {
    const right = (await bill({ period_start: '2026-01-01', period_end: '2026-01-31', amount: 105.33, heat_content: 1.037 }).expect(201))
      .body;
    expect(right).toMatchObject({ unit: 'ccf', usage: 100, heat_content: 1.037 });
    expect(await audit(right.id)).toMatchObject({ status: 'ok', expected_amount: 105.33, variance: 0, findings: [] });

    // The same 100 ccf at 1.2 therms per ccf: 120 x 0.90 = 108.00 + 12.00 = $120.00, so $105.33 is $14.67 short.
    const rich = (await bill({ period_start: '2026-02-01', period_end: '2026-02-28', amount: 105.33, heat_content: 1.2 }).expect(201)).body;
    expect(await audit(rich.id)).toMatchObject({ status: 'variance', expected_amount: 120, variance: -14.67 });
  });

  it('without its heat content the bill cannot be priced, and says what it lacks', async () => {
    const bare = (await bill({ period_start: '2026-03-01', period_end: '2026-03-31', amount: 105.33 }).expect(201)).body;
    expect(bare.heat_content).toBeNull();
    const res = await audit(bare.id);
    expect(res.status).toBe('unpriceable');
    expect(res.reason).toBe('heat_content (therms per ccf, as the gas bill states it) is required to convert ccf to therms');
  });

  it('refuses a heat content no gas bill prints, and one on a bill that is not gas', async () => {
    const range = 'heat_content is therms per ccf as the gas bill prints it, from 0.8 to 1.2 (US average 1.037)';
    // Btu per cubic foot typed for therms per ccf.
    await bill({ period_start: '2026-04-01', period_end: '2026-04-30', amount: 100, heat_content: 1037 })
      .expect(422)
      .expect(errorAnswer({ detail: range, errors: [{ field: 'heat_content', message: range }] }));
    await bill({ period_start: '2026-04-01', period_end: '2026-04-30', amount: 100, heat_content: 0.79 }).expect(422);
    await bill({ period_start: '2026-04-01', period_end: '2026-04-30', amount: 100, heat_content: 1.03712 }).expect(422);
    const water = await as(t, alice)
      .post(`/pm/properties/${propertyId}/bills`, {
        utility_type: 'water',
        usage: 10,
        period_start: '2026-04-01',
        period_end: '2026-04-30',
        amount: 40,
        heat_content: 1.037,
      })
      .expect(422);
    expect(water.body.errors).toEqual([{ field: 'heat_content', message: 'heat_content (therms per ccf) is for gas bills, not water' }]);
  });

  it('an import reads the heat_content column', async () => {
    const csv =
      'meter_id,period_start,period_end,amount,usage,heat_content\n' +
      `${gasMeter},2026-05-01,2026-05-31,105.33,100,1.037\n` +
      `${gasMeter},2026-06-01,2026-06-30,105.33,100,10.37\n`;
    const res = (await as(t, alice).upload(`/pm/properties/${propertyId}/bills/import`, csv).expect(200)).body;
    expect(res).toMatchObject({
      imported: 1,
      rejected: [
        { line: 3, detail: 'heat_content: heat_content is therms per ccf as the gas bill prints it, from 0.8 to 1.2 (US average 1.037)' },
      ],
    });
    const page = (await as(t, alice).get(`/pm/properties/${propertyId}/bills?per_page=100`).expect(200)).body;
    const may = page.items.find((b: { period_start: string }) => b.period_start === '2026-05-01');
    expect(may).toMatchObject({ heat_content: 1.037, usage: 100, unit: 'ccf' });
    expect(await audit(may.id)).toMatchObject({ status: 'ok', expected_amount: 105.33 });
  });
});
