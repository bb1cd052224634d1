import { createTestApp, type TestApp } from './helpers/app';
import { registerUser } from './helpers/users';
import { as } from './pm/helpers';
import { billedProperty, calculateBody } from './tenant-billing/helpers';
import { createFromUrdb, createVersion, createWaterTariff } from '../src/modules/tariffs/custom/examples';

/**
 * Issue 46 item 5: PostgreSQL stores no year 0 (its dates run from 4713 BC, with no year between
 * 1 BC and AD 1). Every date the API takes is a 422 outside the years 0001 to 9999, never a 500.
 */
describe('dates outside the years 0001 to 9999 are a 422', () => {
  let t: TestApp;
  let token: string;
  let tariffId: string;
  let billed: { propertyId: string; configId: string };
  const YEAR_MESSAGE = 'year out of range (0001 to 9999)';

  beforeAll(async () => {
    t = await createTestApp();
    token = (await registerUser(t)).token;
    tariffId = (await as(t, token).post('/tariffs/custom', createWaterTariff).expect(201)).body.id;
    billed = await billedProperty(t, token);
  });
  afterAll(() => t.stop());

  const expect422 = (res: { status: number; body: { detail?: string; errors?: Array<{ field: string }> } }, field: string) => {
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(YEAR_MESSAGE);
    expect(res.body.errors?.[0]?.field).toBe(field);
  };

  it('creating a custom tariff', async () => {
    expect422(await as(t, token).post('/tariffs/custom', { ...createWaterTariff, effective_date: '0000-01-01' }), 'effective_date');
  });

  it('adding a version', async () => {
    expect422(
      await as(t, token).post(`/tariffs/custom/${tariffId}/versions`, { ...createVersion, effective_date: '0000-01-01' }),
      'effective_date',
    );
  });

  it('a URDB record whose startdate or enddate falls outside those years', async () => {
    const yearZero = -62167219200; // 0000-01-01T00:00:00Z
    for (const [key, value] of [
      ['startdate', yearZero],
      ['enddate', yearZero + 86400 * 100],
      ['startdate', 1e15],
      ['startdate', 'soon'],
    ] as const) {
      const res = await as(t, token).post('/tariffs/custom', {
        ...createFromUrdb,
        effective_date: undefined,
        urdb: { ...createFromUrdb.urdb, [key]: value },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors?.[0]?.field).toBe(`urdb.${key}`);
    }
  });

  it('calculate-rubs', async () => {
    const res = await as(t, token).post(
      '/billing/calculate-rubs',
      calculateBody(billed.propertyId, billed.configId, { billing_period_start: '0000-01-01' }),
    );
    expect422(res, 'billing_period_start');
  });

  it('a unit occupancy date of calculate-rubs', async () => {
    const units = [{ unit_id: '101', tenant_name: 'Ana Lima', sqft: 1000, move_in: '0000-12-31' }];
    const res = await as(t, token).post('/billing/calculate-rubs', calculateBody(billed.propertyId, billed.configId, { units }));
    expect(res.status).toBe(422);
  });

  it('the audit findings list and its CSV', async () => {
    expect422(await as(t, token).get('/pm/audit/findings?from=0000-01-01'), 'from');
    expect422(await as(t, token).get('/pm/audit/findings/export.csv?to=0000-01-01'), 'to');
  });

  it('a calculation date and a billing period', async () => {
    expect422(await as(t, token).post('/calculate', { tariff_id: tariffId, usage: 12, date: '0000-06-01' }), 'date');
    expect422(
      await as(t, token).post('/calculate', { tariff_id: tariffId, usage: 12, period_start: '0000-06-01', period_end: '0000-06-30' }),
      'period_start',
    );
  });

  it('the year 0001 is a date', async () => {
    const res = await as(t, token).post('/tariffs/custom', { ...createWaterTariff, name: 'Year one', effective_date: '0001-01-01' });
    expect(res.status).toBe(201);
    expect(res.body.effective_date).toBe('0001-01-01');
  });
});
