import { createTestDatabase } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import type { Database } from '../../src/platform/db/client';
import { createCatalogCache, databaseCatalogSource, type CatalogSource } from '../../src/modules/tariffs/catalog';
import { STATS_KEY } from '../../src/modules/tariffs/stats';
import { writeSystemState } from '../../src/platform/db/system-state';

// Gladstone, MI tariffs (utility 7265, ZIP 49837).
const C1 = '539f6a63ec4f024411ec8eb1';
const SP1 = '539f6a34ec4f024411ec8c9b';
const C3_NON_CITY = '539fb983ec4f024bc1dc23a9';

describe('tariff catalog cache', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  // Decision record 0015 replaced a stamp checked every 5 s (and a bump after this process's imports) with a stamp read per call.
  it("sees a seed and another process's import on the next call; the same stamp keeps the same catalog", async () => {
    const catalog = createCatalogCache(database.db);
    await seedTariffs(database, [C1]);
    const first = await catalog();
    expect(first.search({ include_expired: true }, '2026-11-22', 0, 10).total).toBe(1);
    expect(first.stats?.total_tariffs).toBe(1);
    expect(await catalog()).toBe(first);

    await seedTariffs(database, [SP1]);
    expect((await catalog()).search({ include_expired: true }, '2026-11-22', 0, 10).total).toBe(2);

    // Another process re-stamps the data (its import): the next call builds from it.
    const before = await catalog();
    await writeSystemState(
      database.db,
      STATS_KEY,
      JSON.stringify({ ...before.stats, total_tariffs: 99 }),
      new Date('2030-01-01T00:00:00Z'),
    );
    const after = await catalog();
    expect(after).not.toBe(before);
    expect(after.stats?.total_tariffs).toBe(99);
  });

  // Issue 28 replaced reading in keyset-ordered chunks with yields between them with one plain read per table.
  it('reads each table once and builds a catalog that answers searches', async () => {
    await seedTariffs(database, [C1, SP1, C3_NON_CITY]);
    const tables = databaseCatalogSource(database.db);
    const reads = { tariffs: 0, zipPairs: 0 };
    const source: CatalogSource = {
      ...tables,
      tariffs: () => (reads.tariffs++, tables.tariffs()),
      zipPairs: () => (reads.zipPairs++, tables.zipPairs()),
    };
    const built = await createCatalogCache(database.db, source)();
    expect(reads).toEqual({ tariffs: 1, zipPairs: 1 });
    expect(
      built
        .search({ include_expired: true, zip_code: '49837' }, '2026-11-22', 0, 100)
        .items.map((e) => e.id)
        .sort(),
    ).toEqual([C1, C3_NON_CITY, SP1].sort());
    expect(built.search({ include_expired: true, utility_name: 'gladstone' }, '2026-11-22', 0, 100).total).toBe(3);
  });

  it('reads again when an import commits while it reads, so it never keeps a mix of old and new data', async () => {
    await seedTariffs(database, [C1, SP1, C3_NON_CITY]);
    const stats = (await createCatalogCache(database.db)()).stats;
    const tables = databaseCatalogSource(database.db);
    let reads = 0;
    // Another process's import commits right after the first read of the tariffs.
    const source: CatalogSource = {
      ...tables,
      tariffs: async () => {
        const rows = await tables.tariffs();
        if (++reads === 1) {
          await writeSystemState(database.db, STATS_KEY, JSON.stringify({ ...stats, total_tariffs: 77 }), new Date('2031-01-01T00:00:00Z'));
        }
        return rows;
      },
    };
    const built = await createCatalogCache(database.db, source)();
    expect(reads).toBe(2); // read the tariffs a second time
    expect(built.version).toBe('2031-01-01T00:00:00.000Z');
    expect(built.stats?.total_tariffs).toBe(77);
  });
});
