/**
 * `node scripts/start.mjs <all|web|worker|scheduler>`: brings dist/ up to date with the sources
 * (scripts/build.mjs) and runs that process role in this same process, so signals reach it directly.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { build, OUT_DIR } from './build.mjs';

const ROLES = ['all', 'web', 'worker', 'scheduler'];
const role = process.argv[2] ?? 'all';
if (!ROLES.includes(role)) {
  console.error(`usage: node scripts/start.mjs <${ROLES.join('|')}>`);
  process.exit(2);
}
// Stack traces name the TypeScript sources of dist/ (the same as node --enable-source-maps).
process.setSourceMapsEnabled(true);
build();
createRequire(import.meta.url)(path.join(OUT_DIR, 'workers', `${role}.js`));
