import fs from 'node:fs';
import path from 'node:path';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { createTestDatabase } from './helpers/app';
import type { Database } from '../src/platform/db/client';
import { rowsOf } from '../src/platform/db/errors';
import { monthIndexOfDate } from '../src/modules/analytics/months';

const ROOT = path.resolve(__dirname, '..');

/** The functions (name -> body) the source files define, and their statements in order. */
async function defined() {
  const { DB_FUNCTION_FILES, statementsOf } = await import('../scripts/db-functions.mjs');
  const functions = new Map<string, string>();
  const statements: string[] = [];
  for (const file of DB_FUNCTION_FILES) {
    for (const statement of statementsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      statements.push(statement);
      const fn = /^CREATE OR REPLACE FUNCTION (\w+)\(.*?AS \$\$([\s\S]*)\$\$;$/.exec(statement);
      if (fn) functions.set(fn[1]!, fn[2]!);
    }
  }
  return { functions, statements };
}

type TriggerRow = { name: string; table: string; definition: string };
const TRIGGERS = sql`
  select t.tgname as name, c.relname as table, pg_get_triggerdef(t.oid) as definition
  from pg_trigger t join pg_class c on c.oid = t.tgrelid where not t.tgisinternal order by t.tgname`;

/**
 * The triggers the source files make (some in a loop, in a DO block, so they are not read from the
 * text): with every trigger dropped, the files' statements run again, in a transaction rolled back.
 */
async function triggersOfSourceFiles(database: Database, statements: string[]): Promise<TriggerRow[]> {
  let made: TriggerRow[] = [];
  await database.db
    .transaction(async (tx) => {
      for (const t of rowsOf<TriggerRow>(await tx.execute(TRIGGERS))) {
        await tx.execute(sql.raw(`DROP TRIGGER "${t.name}" ON "${t.table}"`));
      }
      for (const statement of statements) await tx.execute(sql.raw(statement));
      made = rowsOf<TriggerRow>(await tx.execute(TRIGGERS));
      tx.rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
    });
  return made;
}

/**
 * Database functions and triggers have one readable current definition, in a file beside their
 * module; migrations are generated from those files (npm run db:functions). A migrated database
 * holds exactly what the files say: a change to a file without a migration fails here, and so does
 * a function or trigger that a migration made and no file defines.
 */
describe('database functions and triggers', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('are exactly those of the source files, body for body', async () => {
    const { functions, statements } = await defined();
    expect(functions.size).toBeGreaterThan(10);
    const stored = rowsOf<{ name: string; body: string }>(
      await database.db.execute(sql`
      select p.proname as name, p.prosrc as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f'
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`),
    );
    expect(new Map(stored.map((f) => [f.name, f.body]))).toEqual(functions);
    const storedTriggers = rowsOf<TriggerRow>(await database.db.execute(TRIGGERS));
    expect(storedTriggers.length).toBeGreaterThan(20);
    expect(storedTriggers).toEqual(await triggersOfSourceFiles(database, statements));
  });

  it('analytics_month_index counts months as months.ts does (year x 12 + month - 1)', async () => {
    const dates = ['0001-01-01', '1999-12-31', '2026-03-15'];
    const stored = rowsOf<{ m: number }>(
      await database.db.execute(sql`
      select analytics_month_index(d::date) as m from unnest(${`{${dates.join(',')}}`}::text[]) with ordinality as x(d, n) order by n`),
    );
    expect(stored.map((r) => r.m)).toEqual([12, 23_999, 24_314]);
    expect(dates.map(monthIndexOfDate)).toEqual([12, 23_999, 24_314]);
  });
});
