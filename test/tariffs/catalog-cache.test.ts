import { createTestDatabase } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import type { Database } from '../../src/platform/db/client';
import { createCatalogCache, STAMP_CHECK_MS } from '../../src/modules/tariffs/catalog';
import { STATS_KEY } from '../../src/modules/tariffs/stats';
import { writeSystemState } from '../../src/platform/db/system-state';

// Gladstone, MI tariffs (utility 7265, ZIP 49837).
const C1 = '539f6a63ec4f024411ec8eb1';
const SP1 = '539f6a34ec4f024411ec8c9b';

describe('tariff catalog cache', () => {
  let database: Database;
  let now = 0;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('sees a seed in this process at once, and another process\'s import after the stamp check interval', async () => {
    const catalog = createCatalogCache(database.db, () => now);
    await seedTariffs(database, [C1]);
    const first = await catalog();
    expect(first.search({ include_expired: true }, '2026-11-22', 0, 10).total).toBe(1);
    expect(first.stats?.total_tariffs).toBe(1);

    // In-process seed: visible on the next call, without waiting.
    await seedTariffs(database, [SP1]);
    expect((await catalog()).search({ include_expired: true }, '2026-11-22', 0, 10).total).toBe(2);

    // Another process re-stamps the data: served from memory until the interval passes.
    const before = await catalog();
    await writeSystemState(database.db, STATS_KEY, JSON.stringify({ ...before.stats, total_tariffs: 99 }), new Date('2030-01-01T00:00:00Z'));
    now += STAMP_CHECK_MS - 1;
    expect(await catalog()).toBe(before);
    now += 2;
    const after = await catalog();
    expect(after).not.toBe(before);
    expect(after.stats?.total_tariffs).toBe(99);
  });
});
