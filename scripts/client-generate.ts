/**
 * `npm run client:generate`: writes the typed client's schema.d.ts from the routes as they are,
 * then builds the client's dist/ (what an installed package loads). One command after any route change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CLIENT_DIR, SCHEMA_FILE, generateClientSchema } from './client-schema';

async function main() {
  const schema = await generateClientSchema();
  fs.writeFileSync(SCHEMA_FILE, schema);
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
  execFileSync(process.execPath, [path.join(__dirname, 'client-build.mjs')], { stdio: 'inherit', cwd: CLIENT_DIR });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
