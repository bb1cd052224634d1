import { Client } from 'pg';

/** A PostgreSQL database on the server, for one test file or bench run: its URL, and drop() to remove it. */
export interface PgDatabase {
  url: string;
  drop(): Promise<void>;
}

async function run(serverUrl: string, statement: string): Promise<void> {
  const c = new Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/** Creates database `name` (a plain identifier) on the server at `serverUrl`. */
export async function createPgDatabase(serverUrl: string, name: string): Promise<PgDatabase> {
  await run(serverUrl, `CREATE DATABASE ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => run(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
