/**
 * `node scripts/start.mjs <all|web|worker|scheduler>`: brings dist/ up to date with the sources
 * (scripts/build.mjs) and runs that process role in this same process, so signals reach it directly.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

const ROLES = ['all', 'web', 'worker', 'scheduler'];
const role = process.argv[2] ?? 'all';
if (!ROLES.includes(role)) {
  console.error(`usage: node scripts/start.mjs <${ROLES.join('|')}>`);
  process.exit(2);
}
build();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
createRequire(import.meta.url)(path.join(root, 'dist', 'workers', `${role}.js`));
