import fs from 'node:fs';
import path from 'node:path';

/**
 * The checkout's root (the folder with package.json), found from this file's location, so paths
 * to data/ and drizzle/ hold both for the TypeScript sources and for the built copy in dist/.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(__dirname);

/** The service's version: package.json's, which /openapi.json answers as info.version (CHANGELOG.md has each). */
export const SERVICE_VERSION = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
