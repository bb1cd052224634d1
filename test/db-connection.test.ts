import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/platform/db/client';
import { rowsOf } from '../src/platform/db/errors';

const url = process.env.DATABASE_URL;

(url ? describe : describe.skip)('PostgreSQL connections', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: url, poolSize: 1 });
  });
  afterAll(() => database.close());

  it('are opened without JIT compilation', async () => {
    const [row] = rowsOf<{ jit: string }>(await database.db.execute(sql`show jit`));
    expect(row!.jit).toBe('off');
  });
});
