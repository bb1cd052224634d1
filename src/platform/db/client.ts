import path from 'node:path';
import fs from 'node:fs';
import { Pool } from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { Extension } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import * as schema from './schema';
import { PROJECT_ROOT } from '../paths';
import { acquireDataDirLock, systemLockEnvironment, type LockEvents } from './data-dir-lock';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What repositories accept: the database or a transaction on it. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Applies the committed migrations in ./drizzle. */
  migrate(): Promise<void>;
  /** Cheap liveness probe for /health. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

// The contrib entry point is typed as ESM-only, but the package ships a CommonJS build of it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { btree_gist } = require('@electric-sql/pglite/contrib/btree_gist') as { btree_gist: Extension };

/** Extensions the migrations use: pg_trgm (tariff search), btree_gist (bills of a meter never overlap). */
const EXTENSIONS_SQL = 'CREATE EXTENSION IF NOT EXISTS pg_trgm; CREATE EXTENSION IF NOT EXISTS btree_gist';

/** Arbitrary constant key of the advisory lock held while migrating. */
const MIGRATION_LOCK_ID = 7_310_524_011;

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'drizzle');

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Folder for embedded PGlite; undefined means in memory. */
  pgliteDir?: string;
  /** A dumped PGlite data directory to start from (tests load a migrated template). */
  pgliteTemplate?: Blob;
  poolSize?: number;
  /** What the folder's lock does when its file is deleted or taken while this process runs. */
  dataDirLockEvents?: LockEvents;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // JIT off (a connection option, pg's documented `options`): every statement here is short, and
    // compiling one whose estimate passes jit_above_cost (an owner's analytics over 10,000 properties)
    // costs more than running it.
    const pool = new Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10, options: '-c jit=off' });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    // Nor one dropped while checked out (a server restart in the middle of a transaction): the query
    // in flight rejects with the error, and the pool discards the client when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        // Several processes (web replicas, worker) may start at once: one migrates, the others wait.
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          await client.query(EXTENSIONS_SQL);
          await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
          client.release();
        }
      },
      ping: () => ping(db),
      close: () => pool.end(),
    };
  }
  // A folder on disk belongs to one process (data-dir-lock.ts); in-memory databases need no lock.
  const lock = opts.pgliteDir ? acquireDataDirLock(opts.pgliteDir, systemLockEnvironment(), opts.dataDirLockEvents) : undefined;
  let client: PGlite;
  try {
    if (opts.pgliteDir) fs.mkdirSync(opts.pgliteDir, { recursive: true });
    client = new PGlite({
      dataDir: opts.pgliteDir,
      loadDataDir: opts.pgliteTemplate,
      extensions: { pg_trgm, btree_gist },
    });
    await client.waitReady;
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await client.exec(EXTENSIONS_SQL);
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
    },
    ping: () => ping(db),
    close: async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
