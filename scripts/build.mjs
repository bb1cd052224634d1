/**
 * Transpiles the service's TypeScript (src/, jobs/, workers/; not tests) to CommonJS in dist/,
 * keeping the layout, so processes run on plain Node.js without a TypeScript loader at start.
 * Type checking is `npm run typecheck`'s job; this only strips types (esbuild, about half a second).
 *
 * Safe to run by several processes at once (the Procfile starts three): a file is written only
 * when its content changed, through a temporary file renamed into place, so a process that is
 * loading dist/ never sees a half-written or missing file.
 */
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { buildSync } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['src', 'jobs', 'workers'];
export const OUT_DIR = path.join(ROOT, 'dist');

function sources() {
  return SOURCE_DIRS.flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
      .map((f) => path.join(ROOT, dir, f)),
  );
}

function writeIfChanged(file, contents) {
  try {
    if (Buffer.compare(fs.readFileSync(file), contents) === 0) return false;
  } catch {
    // not there yet
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
  return true;
}

export function build() {
  const result = buildSync({
    entryPoints: sources(),
    outdir: OUT_DIR,
    outbase: ROOT,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    write: false,
    logLevel: 'error',
  });
  let written = 0;
  for (const out of result.outputFiles) if (writeIfChanged(out.path, out.contents)) written++;
  return { files: result.outputFiles.length, written };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { files, written } = build();
  console.log(`dist/: ${files} files, ${written} changed (${Math.round(performance.now() - started)} ms)`);
}
