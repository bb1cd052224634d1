/**
 * `npm run db:functions -- <name>`: writes a migration that applies the database functions and
 * triggers as their source files define them (each file is idempotent: CREATE OR REPLACE, DROP
 * TRIGGER IF EXISTS). Run it after changing one of DB_FUNCTION_FILES; test/db-functions.test.ts
 * fails until a migration carries the change.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** In dependency order: the analytics triggers call functions defined before them in the same file. */
export const DB_FUNCTION_FILES = [
  'src/modules/properties/db-functions.sql',
  'src/modules/tenant-billing/db-functions.sql',
  'src/modules/analytics/db-functions.sql',
];

/**
 * The statements of a file, one per migration step (the migrator runs each on its own): a
 * statement ends with the line that ends in `;` outside a $$-quoted body. Comment lines go.
 */
export function statementsOf(text) {
  const statements = [];
  let current = [];
  let quoted = false;
  for (const line of text.split('\n')) {
    if (!quoted && (line.startsWith('--') || line.trim() === '')) continue;
    current.push(line);
    quoted = (line.split('$$').length - 1) % 2 === 1 ? !quoted : quoted;
    if (!quoted && line.trimEnd().endsWith(';')) {
      statements.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) throw new Error(`a statement without its closing ';': ${current[0]}`);
  return statements;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2] ?? 'db_functions';
  const out = execFileSync('npx', ['drizzle-kit', 'generate', '--custom', '--name', name], { cwd: ROOT, encoding: 'utf8' });
  const file = /(drizzle\/\d{4}_\w+\.sql)/.exec(out)?.[1];
  if (!file) throw new Error(`drizzle-kit did not name the migration it wrote:\n${out}`);
  const statements = DB_FUNCTION_FILES.flatMap((f) => statementsOf(fs.readFileSync(path.join(ROOT, f), 'utf8')));
  fs.writeFileSync(path.join(ROOT, file), `${statements.join('\n--> statement-breakpoint\n')}\n`);
  console.log(`${file}: the functions and triggers of ${DB_FUNCTION_FILES.length} files`);
}
