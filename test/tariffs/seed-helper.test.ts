import { createTestDatabase } from '../helpers/app';
import { loadBundledTariffs, seedTariffs } from '../helpers/tariffs';
import { findTariffById, findTariffsByIds } from '../../src/modules/tariffs/repository';
import { readTariffStats } from '../../src/modules/tariffs/stats';
import type { Database } from '../../src/platform/db/client';

// Real URDB labels: PG&E B-19 (TOU energy and TOU demand), a flat one, a tiered one.
const LABELS = ['5e17b4ef5457a3556573e3b0', '539f6a0aec4f024411ec8ab1', '539f6a0aec4f024411ec8aa7'];

describe('tariff seeding helper and repository', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('stores tariffs that read back exactly as normalised (structure round trip)', async () => {
    const expected = await loadBundledTariffs(LABELS);
    await seedTariffs(database, LABELS);
    const found = await findTariffsByIds(database.db, [LABELS[2], 'nope', LABELS[0], LABELS[1]]);
    expect(found.map((t) => t.id)).toEqual([LABELS[2], LABELS[0], LABELS[1]]);
    expect(found[1]).toEqual(expected[0]);
    expect(await findTariffById(database.db, LABELS[1])).toEqual(expected[1]);
    expect(await findTariffById(database.db, 'missing')).toBeNull();
  });

  it('seeding twice keeps one row per tariff and refreshes the cached stats', async () => {
    await seedTariffs(database, LABELS);
    const stats = await readTariffStats(database.db);
    expect(stats?.total_tariffs).toBe(3);
  });
});
