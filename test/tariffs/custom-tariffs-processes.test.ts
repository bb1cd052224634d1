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
 * with its own custom-tariff service. Own tariffs are read from the database whenever they are
 * priced (decision record 0015: no cache of them), so the worker prices the version the web process
 * just wrote, with nothing to drop first.
 */
describe('own tariffs priced in another process', () => {
  let t: TestApp;
  let alice: RegisteredTestUser;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = await registerUser(t);
  });
  afterAll(() => t.stop());

  const create = async (name: string) =>
    (
      await as(t, alice.token)
        .post('/tariffs/custom', {
          name,
          utility_name: 'Process Electric',
          state: 'OH',
          sector: 'commercial',
          effective_date: '2020-01-01',
          ...rates(0.1),
        })
        .expect(201)
    ).body as { id: string };
  const addVersion = (id: string) =>
    as(t, alice.token)
      .post(`/tariffs/custom/${id}/versions`, { effective_date: '2026-01-16', ...rates(0.12) })
      .expect(201);
  const workerService = () => createCustomTariffService({ db: t.deps.database.db, now: () => new Date('2026-11-15T12:00:00Z') });

  it('a worker that priced a tariff prices the version the web process adds next', async () => {
    const worker = workerService();
    /** January 2026 on the worker: one span before the version of January 16, two after. */
    const spans = async (id: string) => {
      const over = (await worker.reader(alice.user.id, id))?.over('2026-01-01', '2026-01-31');
      if (!over || !Array.isArray(over)) throw new Error('not priced');
      return over.map((s) => `${s.from}..${s.to}`);
    };
    const own = await create('Process A');
    expect(await spans(own.id)).toEqual(['2026-01-01..2026-01-31']);
    await addVersion(own.id);
    expect(await spans(own.id)).toEqual(['2026-01-01..2026-01-15', '2026-01-16..2026-01-31']);
    const onDate = await worker.onDate(alice.user.id, [own.id], '2026-02-01');
    const inForce = onDate.get(own.id);
    expect(inForce && 'tariff' in inForce ? inForce.tariff.effectiveDate : null).toBe('2026-01-16');
  });

  it("the owner's tariff list (rate analysis, explanations) shows a tariff the web process adds next", async () => {
    const worker = workerService();
    const names = async () => (await worker.inForce(alice.user.id, '2026-06-01')).map((tariff) => tariff.name).sort();
    const before = await names();
    await create('Process C');
    expect(await names()).toEqual([...before, 'Process C'].sort());
  });
});
