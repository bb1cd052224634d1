import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestApp, type TestApp } from './helpers/app';
import { seedTariffs } from './helpers/tariffs';

const ROOT = path.resolve(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The JSON body of the README's first `POST /calculate` (the `-d '...'` after it). */
function firstCalculateBody(): { tariff_id: string; usage_kwh: number; demand_kw?: number; month: number } {
  const m = /\/api\/v1\/calculate -H 'content-type: application\/json' \\\n\s+-d '([^']+)'/.exec(README);
  if (!m) throw new Error('README has no POST /api/v1/calculate example');
  return JSON.parse(m[1]);
}

describe('the README', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('prices its first bill on a tariff the customer could take (it was 40 kW on a 500 to 1,000 kW tariff)', async () => {
    const body = firstCalculateBody();
    await seedTariffs(t.deps.database, [body.tariff_id]);
    const res = await request(t.app).post('/api/v1/calculate').send(body);
    expect(res.status).toBe(200);
    expect(res.body.line_items.length).toBeGreaterThan(0);
    const limits = (await request(t.app).get(`/api/v1/tariffs/${body.tariff_id}`)).body.applicability;
    expect(limits.demand_kw_min ?? 0).toBeLessThanOrEqual(body.demand_kw ?? 0);
    expect(limits.demand_kw_max ?? Infinity).toBeGreaterThanOrEqual(body.demand_kw ?? 0);
    expect((res.body.assumptions as string[]).filter((a) => a.includes('may not offer'))).toEqual([]);
  });

  // Issue 51 item 6 moved the README's reference sections to docs/: their links are checked alike.
  it('links only to files in the repository, and sends no reader to documents outside it', () => {
    const docs = ['README.md', ...listMarkdown('docs'), ...listMarkdown('src'), 'data/reference/README.md'];
    for (const doc of docs) {
      const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
      expect({ doc, outside: text.match(/\b(SPEC|CONTRACT)\.md\b/g) ?? [] }).toEqual({ doc, outside: [] });
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        expect({ doc, target, exists: fs.existsSync(path.join(ROOT, path.dirname(doc), target)) }).toEqual({ doc, target, exists: true });
      }
    }
  });

  it('code comments name no document outside the repository', () => {
    const offenders = [...listFiles('src'), ...listFiles('test'), ...listFiles('jobs'), ...listFiles('workers')]
      .filter((f) => f.endsWith('.ts') && /\b(SPEC|CONTRACT)\.md\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')))
      .filter((f) => f !== 'test/readme.test.ts');
    expect(offenders).toEqual([]);
  });
});

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}
function listMarkdown(dir: string): string[] {
  return listFiles(dir).filter((f) => f.endsWith('.md'));
}
