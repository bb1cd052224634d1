/**
 * `npm run db:drift`: fails when the tables (src/platform/db/schema.ts) say something the committed
 * migrations do not: a column, an index, or a check built from a code list (a status list the API
 * validates with) changed without `npm run db:generate`. It asks drizzle-kit to generate into a
 * copy of drizzle/, so the checkout is never written; the copy is removed either way.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Relative: drizzle-kit joins `--out` onto the working directory.
const COPY = path.join('node_modules', '.cache', 'drizzle-drift');

fs.rmSync(path.join(ROOT, COPY), { recursive: true, force: true });
fs.cpSync(path.join(ROOT, 'drizzle'), path.join(ROOT, COPY), { recursive: true });
let output;
try {
  output = execFileSync(
    'npx',
    ['drizzle-kit', 'generate', '--dialect', 'postgresql', '--schema', './src/platform/db/schema.ts', '--out', COPY, '--name', 'drift'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
} finally {
  const written = fs.readdirSync(path.join(ROOT, COPY)).filter((f) => f.endsWith('_drift.sql'));
  for (const file of written) process.stdout.write(`${fs.readFileSync(path.join(ROOT, COPY, file), 'utf8')}\n`);
  fs.rmSync(path.join(ROOT, COPY), { recursive: true, force: true });
}
if (!output.includes('No schema changes')) {
  console.error(
    'The tables differ from the migrations (the SQL above is what is missing): run `npm run db:generate -- --name <what changed>`.',
  );
  process.exit(1);
}
console.log('The migrations match the tables.');
