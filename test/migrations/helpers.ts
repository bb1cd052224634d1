/** Shared by the migration tests: a PGlite database migrated up to a given migration. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR } from '../../src/platform/db/client';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { btree_gist } = require('@electric-sql/pglite/contrib/btree_gist') as { btree_gist: Extension };

/** A copy of the migrations folder holding those before `tag` only. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at === -1) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** A database with the migrations before `tag` applied, and `rest()` to apply the others. */
export async function databaseBefore(tag: string): Promise<{ client: PGlite; rest: () => Promise<void> }> {
  const client = new PGlite({ extensions: { pg_trgm, btree_gist } });
  await client.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm; CREATE EXTENSION IF NOT EXISTS btree_gist');
  await migrate(drizzle(client), { migrationsFolder: migrationsBefore(tag) });
  return { client, rest: () => migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR }) };
}
