import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';

const ROOT = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');

/** Issue 51 item 6: one version, in package.json, the OpenAPI document and the changelog. */
describe('the service version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('is a semantic version', () => {
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("/openapi.json answers package.json's version as info.version", async () => {
    const res = await request(t.app).get('/openapi.json').expect(200);
    expect((res.body as { info: { version: string } }).info.version).toBe(pkg.version);
  });

  it('CHANGELOG.md (Keep a Changelog) has an Unreleased section, then the current version as its newest release', () => {
    const releases = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => ({ version: m[1], date: m[2] }));
    expect(releases[0]).toEqual({ version: 'Unreleased', date: undefined });
    expect(releases[1].version).toBe(pkg.version);
    // Newest first: every later heading is an older version with a date no later.
    const older = releases.slice(1);
    for (let i = 1; i < older.length; i++) {
      const [a, b] = [older[i - 1], older[i]].map((r) => r.version.split('.').map(Number));
      expect(a[0] * 1e6 + a[1] * 1e3 + a[2]).toBeGreaterThan(b[0] * 1e6 + b[1] * 1e3 + b[2]);
      expect(older[i].date! <= older[i - 1].date!).toBe(true);
    }
    // Only Keep a Changelog's kinds of change.
    for (const [, kind] of changelog.matchAll(/^### (.+)$/gm))
      expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(kind);
  });
});
