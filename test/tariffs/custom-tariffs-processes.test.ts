import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser, type RegisteredTestUser } from '../helpers/users';
import { as } from '../pm/helpers';
import { createCustomTariffService } from '../../src/modules/tariffs/custom/service';

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const rates = (perKwh: number) => ({
  energy_rates: [{ period: 'all_year', months: ALL_MONTHS, rate_per_kwh: perKwh }],
  fixed_charges: [{ name: 'Customer charge', amount: 10, frequency: 'monthly' }],
});

/**
 * Issue 32, item 5 (a tariff version added re-prices on the worker): the worker is another process
 * with its own priced-tariff cache. A job that re-prices drops that cache first, so it prices the
 * version the web process just wrote; a read that was in flight when the cache was dropped is not
 * kept. (This replaced waiting out the cache's time-to-live before the re-pricing ran.)
 */
describe('own tariffs priced in another process', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = await registerUser(t);
  });
  afterAll(() => t.stop());

  const create = async (name: string) => (await as(t, alice.token).post('/tariffs/custom', {
    name, utility_name: 'Process Electric', state: 'OH', sector: 'commercial', effective_date: '2020-01-01', ...rates(0.1),
  }).expect(201)).body as { id: string };
  const addVersion = (id: string) => as(t, alice.token).post(`/tariffs/custom/${id}/versions`, { effective_date: '2026-01-16', ...rates(0.12) }).expect(201);

  it('a worker keeps the rates it priced until a re-pricing job drops them, then prices the new version', async () => {
    const worker = createCustomTariffService({ db: t.deps.database.db, now: () => new Date('2026-11-15T12:00:00Z') });
    /** January 2026 on the worker: one span before the version of January 16, two after. */
    const spans = async (id: string) => {
      const over = await worker.overPeriod(alice.user.id, id, '2026-01-01', '2026-01-31');
      if (!over || !Array.isArray(over)) throw new Error('not priced');
      return over.map((s) => `${s.from}..${s.to}`);
    };
    const own = await create('Process A');
    expect(await spans(own.id)).toEqual(['2026-01-01..2026-01-31']);
    await addVersion(own.id);
    // The web process wrote it; the worker still prices what it kept.
    expect(await spans(own.id)).toEqual(['2026-01-01..2026-01-31']);
    worker.forgetPricedTariffs();
    expect(await spans(own.id)).toEqual(['2026-01-01..2026-01-15', '2026-01-16..2026-01-31']);

    // A read in flight while the cache is dropped and the version written: answered, not kept.
    const other = await create('Process B');
    const inFlight = spans(other.id);
    worker.forgetPricedTariffs();
    await addVersion(other.id);
    expect(await inFlight).toEqual(['2026-01-01..2026-01-31']);
    expect(await spans(other.id)).toEqual(['2026-01-01..2026-01-15', '2026-01-16..2026-01-31']);
  });

  it('the owner\'s tariff list (rate analysis, explanations) follows the same rule', async () => {
    const worker = createCustomTariffService({ db: t.deps.database.db, now: () => new Date('2026-11-15T12:00:00Z') });
    const names = async () => (await worker.inForce(alice.user.id, '2026-06-01')).map((tariff) => tariff.name).sort();
    const before = await names();
    await create('Process C');
    expect(await names()).toEqual(before);
    worker.forgetPricedTariffs();
    expect(await names()).toEqual([...before, 'Process C'].sort());
  });
});
