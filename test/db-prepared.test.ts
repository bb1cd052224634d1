import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/platform/db/client';
import { executePrepared } from '../src/platform/db/prepared';
import { rowsOf } from '../src/platform/db/errors';

/** executePrepared on the embedded database, and on PostgreSQL too when DATABASE_URL is set. */
const drivers: Array<[string, string | undefined]> = [['pglite', undefined]];
if (process.env.DATABASE_URL) drivers.push(['postgres', process.env.DATABASE_URL]);

describe.each(drivers)('executePrepared (%s)', (driver, databaseUrl) => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl, poolSize: 1 });
  });
  afterAll(() => database.close());

  it('runs inside a transaction, on its connection; texts that differ get names that differ, the same text the same', async () => {
    const prepared = await database.db.transaction(async (tx) => {
      await tx.execute('create temporary table prepared_exec_probe (n int, d date) on commit drop');
      await tx.execute(sql`insert into prepared_exec_probe values (7, '2026-11-01'), (8, '2026-12-01')`);
      const filter = (n: number | null) => (n === null ? sql`true` : sql`n = ${n}`);
      const select = (n: number | null) => executePrepared<{ n: number; d: string }>(tx, sql`select n, d from prepared_exec_probe where ${filter(n)} order by n`);
      expect(await select(7)).toEqual([{ n: 7, d: '2026-11-01' }]);
      expect(await select(null)).toEqual([{ n: 7, d: '2026-11-01' }, { n: 8, d: '2026-12-01' }]);
      expect(await select(8)).toEqual([{ n: 8, d: '2026-12-01' }]);
      if (driver !== 'postgres') return [];
      return rowsOf<{ name: string; statement: string }>(await tx.execute(sql`
        select name, statement from pg_prepared_statements where statement like '%prepared_exec_probe%' order by statement`));
    });
    if (driver === 'postgres') {
      // Two texts (with and without the filter), each prepared once on the connection and reused.
      expect(prepared).toHaveLength(2);
      expect(prepared.map((p) => p.name)).toEqual([expect.stringMatching(/^q_[0-9a-f]{32}$/), expect.stringMatching(/^q_[0-9a-f]{32}$/)]);
      expect(prepared[0]!.name).not.toBe(prepared[1]!.name);
    }
  });

  if (driver === 'postgres') {
    it('opens its connections without JIT compilation', async () => {
      const [row] = rowsOf<{ jit: string }>(await database.db.execute(sql`show jit`));
      expect(row!.jit).toBe('off');
    });
  }
});
