#!/usr/bin/env node
/**
 * `npm run client:build`: compiles the typed client (clients/typescript/src) to its committed
 * dist/, CommonJS with declarations, so the package installs and runs without a build step.
 * schema.d.ts holds types only: tsc does not copy it, this does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const client = path.join(root, 'clients', 'typescript');
const dist = path.join(client, 'dist');

fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(client, 'tsconfig.json')], {
  stdio: 'inherit',
});
fs.copyFileSync(path.join(client, 'src', 'schema.d.ts'), path.join(dist, 'schema.d.ts'));
console.log(`built ${path.relative(root, dist)}`);
