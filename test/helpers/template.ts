import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../../src/platform/db/client';

/** Path of the migrated PGlite template for the current migration files (their hash names it). */
export function templatePath(): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else hash.update(name).update(fs.readFileSync(p));
    }
  };
  walk(MIGRATIONS_DIR);
  return path.join(os.tmpdir(), `energy-api-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}
