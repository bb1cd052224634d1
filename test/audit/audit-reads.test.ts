import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createBill, createMeter, createProperty } from '../pm/helpers';
import { createVersion, createWaterTariff } from '../../src/modules/tariffs/custom/examples';
import { errorAnswer } from '../helpers/error-body';

/**
 * Issue 47 item 7: reading a bill's audit does not run it again. GET answers the stored audit,
 * `stale: true` while an audit asked for after a change is queued; POST runs it now. This app runs
 * no jobs, so a queued audit stays queued.
 */
describe('reading an audit does not re-run it (issue 47 item 7)', () => {
  let t: TestApp;
  let alice: string;
  let tariffId: string;
  let propertyId: string;
  let meterId: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    tariffId = (await as(t, alice).post('/tariffs/custom', createWaterTariff).expect(201)).body.id;
    propertyId = (await createProperty(t, alice, { city: 'Harlingen', state: 'TX', zip_code: '78550' })).id;
    meterId = (await createMeter(t, alice, propertyId, { utility_type: 'water', unit: 'kgal', tariff_id: tariffId })).id;
  });
  afterAll(() => t.stop());

  it('GET answers the stored audit without pricing; a new tariff version makes it stale until POST runs it', async () => {
    const january = await createBill(t, alice, propertyId, {
      meter_id: meterId,
      usage: 12,
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      amount: 31.51,
    });
    // Never audited (its job is queued, not run): the first read audits it. 3 x 1.30 + 7 x 1.80 + 2 x 2.55 + 9.91 = 31.51.
    const first = (await as(t, alice).get(`/pm/bills/${january.id}/audit`).expect(200)).body;
    expect(first).toMatchObject({ status: 'ok', expected_amount: 31.51, findings: [], stale: false });

    const pricing = jest.spyOn(t.services.pricing, 'tariffOverPeriods');
    try {
      const again = (await as(t, alice).get(`/pm/bills/${january.id}/audit`).expect(200)).body;
      expect(again).toEqual(first);
      expect(pricing).not.toHaveBeenCalled();

      // The 2025-10-01 version prices January: 3 x 1.38 + 7 x 1.91 + 2 x 2.70 + 10.50 = 4.14 + 13.37 + 5.40 + 10.50 = 33.41.
      await as(t, alice).post(`/tariffs/custom/${tariffId}/versions`, createVersion).expect(201);
      const stale = (await as(t, alice).get(`/pm/bills/${january.id}/audit`).expect(200)).body;
      expect(stale).toEqual({ ...first, stale: true });
      expect(pricing).not.toHaveBeenCalled();

      // 31.51 - 33.41 = -1.90; -1.90 / 33.41 = -5.69 % -> -5.7 %: outside the 3 % tolerance, under 10 % and $500: medium.
      const rerun = (await as(t, alice).post(`/pm/bills/${january.id}/audit`).expect(200)).body;
      expect(pricing).toHaveBeenCalled();
      expect(rerun).toMatchObject({ status: 'variance', expected_amount: 33.41, variance: -1.9, variance_percent: -5.7, stale: false });
      expect(rerun.findings).toContainEqual(
        expect.objectContaining({ reason: 'price_variance', severity: 'medium', amount_at_issue: -1.9 }),
      );
      pricing.mockClear();
      expect((await as(t, alice).get(`/pm/bills/${january.id}/audit`).expect(200)).body).toEqual(rerun);
      expect(pricing).not.toHaveBeenCalled();
    } finally {
      pricing.mockRestore();
    }
  });

  it("a bill written on the meter, or a change of the meter's tariff, makes the stored audit stale", async () => {
    const march = await createBill(t, alice, propertyId, {
      meter_id: meterId,
      usage: 12,
      period_start: '2026-03-01',
      period_end: '2026-03-31',
      amount: 33.41,
    });
    expect((await as(t, alice).post(`/pm/bills/${march.id}/audit`).expect(200)).body).toMatchObject({ status: 'ok', stale: false });
    await createBill(t, alice, propertyId, {
      meter_id: meterId,
      usage: 12,
      period_start: '2026-04-01',
      period_end: '2026-04-30',
      amount: 33.41,
    });
    expect((await as(t, alice).get(`/pm/bills/${march.id}/audit`).expect(200)).body).toMatchObject({ status: 'ok', stale: true });
    await as(t, alice).post(`/pm/bills/${march.id}/audit`).expect(200);
    await as(t, alice).patch(`/pm/meters/${meterId}`, { tariff_id: null }).expect(200);
    const afterMeter = (await as(t, alice).get(`/pm/bills/${march.id}/audit`).expect(200)).body;
    expect(afterMeter).toMatchObject({ status: 'ok', expected_amount: 33.41, stale: true });
    expect((await as(t, alice).post(`/pm/bills/${march.id}/audit`).expect(200)).body).toMatchObject({
      status: 'unpriceable',
      reason: 'the water meter has no tariff',
      stale: false,
    });
  });

  it("another owner's bill is a 404 to both", async () => {
    const bob = (await registerUser(t)).token;
    const bill = await createBill(t, alice, propertyId, {
      meter_id: meterId,
      usage: 12,
      period_start: '2026-05-01',
      period_end: '2026-05-31',
      amount: 33.41,
    });
    await as(t, bob)
      .get(`/pm/bills/${bill.id}/audit`)
      .expect(404)
      .expect(errorAnswer({ detail: 'Bill not found' }));
    await as(t, bob)
      .post(`/pm/bills/${bill.id}/audit`)
      .expect(404)
      .expect(errorAnswer({ detail: 'Bill not found' }));
  });
});
