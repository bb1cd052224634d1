import { openDatabase, type Database } from './client';
import { queryPrepared } from './prepared';

describe('queryPrepared', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(() => database.close());

  const text = 'select $1::int + $2::int + $3::int + $4::int + $5::int + $6::int + $7::int + $8::int + $9::int as sum, '
    + '$10::text as tenth, $2::int as second';
  const params = [32, 2, 1, 1, 1, 1, 1, 1, 2, 'ten'];

  it('binds every $n placeholder, $10 included', async () => {
    expect(await queryPrepared(database.db, 'prepared_test', text, params)).toEqual([{ sum: 42, tenth: 'ten', second: 2 }]);
  });

  it('runs inside a transaction, on the transaction', async () => {
    const rows = await database.db.transaction(async (tx) => {
      await tx.execute('create temporary table prepared_probe (n int) on commit drop');
      await tx.execute('insert into prepared_probe values (7)');
      const seen = await queryPrepared<{ n: number }>(tx, 'prepared_probe', 'select n from prepared_probe where n = $1', [7]);
      return [...seen, ...(await queryPrepared(tx, 'prepared_test', text, params))];
    });
    expect(rows).toEqual([{ n: 7 }, { sum: 42, tenth: 'ten', second: 2 }]);
  });
});
