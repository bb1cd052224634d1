#!/usr/bin/env node
/**
 * `npm run lock:complete`, after any `npm install` that changes package-lock.json.
 *
 * Why: the npm registry mirror of our build machines serves only the Linux builds of
 * platform-specific native packages (@swc/core-darwin-arm64 and friends answer 404).
 * npm then leaves those optional dependencies out of package-lock.json, and `npm ci`
 * refuses the lock ("Missing: ... from lock file"). This adds the entry npm would have
 * written on an open registry: the version the parent pins, marked optional, with the
 * os/cpu/libc read from the package name, so every machine skips it unless it is that
 * platform (where npm fetches it normally).
 */
import fs from 'node:fs';
import { URL } from 'node:url';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

/** Platform constraints from a name like @swc/core-linux-arm-gnueabihf; null when it names no platform. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return null;
  const libc =
    os === 'linux'
      ? parts.some((p) => p.startsWith('musl'))
        ? 'musl'
        : parts.some((p) => p.startsWith('gnu'))
          ? 'glibc'
          : undefined
      : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  if (!path) continue;
  for (const [dep, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    const hoisted = `node_modules/${dep}`;
    const nested = `${path}/node_modules/${dep}`;
    if (packages[nested] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[hoisted] = { version: spec.replace(/^[\^~=]/, ''), optional: true, ...platform };
    added++;
  }
}

fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-specific optional entries added`);
