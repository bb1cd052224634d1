import { URDB_2020PLUS_FILE } from '../../src/modules/tariffs/bundled-2020plus';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import {
  ensureReferenceData,
  importReferenceData,
  REFERENCE_DATA_VERSION,
  REFERENCE_IMPORT_KEY,
  storedReferenceVersion,
} from '../../src/modules/tariffs/importer';
import { writeSystemState } from '../../src/platform/db/system-state';
import { readTariffStats } from '../../src/modules/tariffs/stats';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';
import { URDB_FILE } from '../../src/modules/tariffs/bundled';

const FLAT = '539f6a0aec4f024411ec8ab1';
const TIERED = '539f6a0aec4f024411ec8aa7';
const TOU = '539f6a63ec4f024411ec8eed';
const DEMAND = '539f6b73ec4f024411ec9d2d';
const DAILY = '5925fea75457a30036de90e2';
const BAD_DEMAND_SCHEDULE = '539fb88bec4f024bc1dc1897';

const bundledLines = new Map<string, string>();
for (const line of zlib
  .gunzipSync(fs.readFileSync(path.join(REFERENCE_DIR, URDB_FILE)))
  .toString('utf8')
  .split('\n')) {
  const m = /"label": ?"([0-9a-f]{24})"/.exec(line);
  if (m) bundledLines.set(m[1], line);
}

/** A reference folder with the real EIA/ZIP files and a URDB file of the given lines. */
function fixtureDir(lines: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ref-fixture-'));
  for (const f of fs.readdirSync(REFERENCE_DIR)) {
    if (f !== URDB_FILE && f !== URDB_2020PLUS_FILE) fs.symlinkSync(path.join(REFERENCE_DIR, f), path.join(dir, f));
  }
  fs.writeFileSync(path.join(dir, URDB_FILE), zlib.gzipSync(lines.join('\n') + '\n'));
  fs.writeFileSync(path.join(dir, URDB_2020PLUS_FILE), '');
  return dir;
}
const real = (label: string) => {
  const line = bundledLines.get(label);
  if (!line) throw new Error(`no bundled record ${label}`);
  return line;
};

describe('reference data importer', () => {
  let t: TestApp;
  const tariffIds = async () =>
    (await t.deps.database.db.execute(sql`select id from tariffs order by id`)) as unknown as { rows: Array<{ id: string }> };
  const count = (table: string) => countRows(t.deps.database.db, table);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('imports, reports every skipped record with its reason, and is idempotent', async () => {
    const dir = fixtureDir([
      real(FLAT),
      real(TIERED),
      '{"label": "broken',
      real(TOU),
      real(DEMAND),
      real(FLAT),
      real(DAILY),
      real(BAD_DEMAND_SCHEDULE),
    ]);
    const now = new Date('2026-02-01T00:00:00Z');
    const first = await importReferenceData(t.deps.database.db, { dir, now });
    expect(first).toMatchObject({ recordsRead: 8, imported: 5 });
    expect(first.skipped).toEqual([
      { id: 'line 3', reason: expect.stringMatching(/^line 3 is not a JSON object/) },
      { id: FLAT, reason: 'duplicate label (line 6)' },
      { id: BAD_DEMAND_SCHEDULE, reason: 'demandweekdayschedule refers to period 3 but only 2 are defined' },
    ]);
    expect((await tariffIds()).rows.map((r) => r.id)).toEqual([FLAT, TIERED, TOU, DEMAND, DAILY].sort());
    const utilities = await count('utilities');
    const zips = await count('utility_zip_codes');
    expect(utilities).toBe(first.utilities);
    expect(zips).toBe(first.zipPairs);
    expect(await readTariffStats(t.deps.database.db)).toMatchObject({
      total_tariffs: 5,
      total_utilities: 5,
      last_updated: now.toISOString(),
    });

    // A first import gains every ZIP code; the same files again change nothing.
    expect(first.coverage).toMatchObject({
      zipCodes: { before: 0, gained: first.coverage.zipCodes.after, lost: 0 },
      pairs: { before: 0, after: first.zipPairs, added: first.zipPairs, removed: 0 },
    });
    // Issue 45 added the EIA-861 county pairs (counties the 2011 investor-owned table misses) to the three tables' pairs.
    expect(
      first.coverage.pairsBySource.non_iou_2023 +
        first.coverage.pairsBySource.iou_2011 +
        first.coverage.pairsBySource.energystar_2025 +
        first.coverage.pairsBySource.eia861_county_2018,
    ).toBe(first.zipPairs);
    const again = await importReferenceData(t.deps.database.db, { dir, now });
    expect(again.coverage).toMatchObject({ zipCodes: { gained: 0, lost: 0 }, pairs: { added: 0, removed: 0 } });
    expect({ ...again, durationMs: 0, coverage: null }).toEqual({ ...first, durationMs: 0, coverage: null });
    expect((await tariffIds()).rows).toHaveLength(5);
    expect(await count('utilities')).toBe(utilities);
    expect(await count('utility_zip_codes')).toBe(zips);
    const u = await request(t.app).get('/api/v1/utilities/14328').expect(200);
    expect(u.body.tariff_count).toBe(0);
  });

  it('a failing import leaves the previous data intact', async () => {
    const before = (await tariffIds()).rows;
    const statsBefore = await readTariffStats(t.deps.database.db);
    const db = t.deps.database.db;
    await db.execute(
      sql.raw(`create function reject_tariff() returns trigger language plpgsql as $$
      begin raise exception 'simulated failure'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger reject_tariff before insert on tariffs for each row
      when (new.id = '${DAILY}') execute function reject_tariff()`),
    );
    try {
      const dir = fixtureDir([real(TOU), real(DAILY)]);
      await expect(importReferenceData(db, { dir })).rejects.toThrow();
    } finally {
      await db.execute(sql.raw('drop trigger reject_tariff on tariffs'));
      await db.execute(sql.raw('drop function reject_tariff'));
    }
    expect((await tariffIds()).rows).toEqual(before);
    expect(await readTariffStats(db)).toEqual(statsBefore);
    expect(await count('utility_zip_codes')).toBeGreaterThan(0);
  });

  it('imports the whole bundled URDB file: counts and reasons', async () => {
    const report = await importReferenceData(t.deps.database.db);
    // 13,669 records of the main bundle and the 10 newer ones of urdb_tariffs_2020plus.jsonl (issue 26).
    expect(report.recordsRead).toBe(13679);
    expect(report.imported).toBe(13666);
    const reasons = new Map<string, number>();
    for (const s of report.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
    expect(Object.fromEntries(reasons)).toEqual({
      'record has no energy, demand or fixed charges': 9,
      'demandweekdayschedule refers to period 3 but only 2 are defined': 2,
      'demandweekdayschedule refers to period 2 but only 1 are defined': 1,
      'flatdemandmonths refers to period 2 but only 1 are defined': 1,
    });
    // 12: issue 45 files the tariffs of 8 merged utilities only URDB named (Columbus Southern Power, ...) under their successors.
    expect(report.utilitiesFromUrdbOnly).toHaveLength(12);
    const stats = (await request(t.app).get('/api/v1/tariffs/stats?include_expired=true').expect(200)).body;
    expect(stats.total_tariffs).toBe(13666);
    // By default stats count what search finds: current tariffs only.
    const current = (await request(t.app).get('/api/v1/tariffs/stats').expect(200)).body.total_tariffs;
    expect(current).toBe((await request(t.app).get('/api/v1/tariffs/search').expect(200)).body.total);
    expect(current).toBeLessThan(13666);
    expect(stats.sectors.commercial + stats.sectors.residential).toBe(13666);
    expect(stats.rate_types.flat + stats.rate_types.tiered + stats.rate_types.tou + stats.rate_types.demand).toBe(13666);
    expect(stats.rate_types.real_time).toBe(0);
    // 50: by the state rule no tariff lands in DC (Pepco's unsuffixed tariffs go to MD, its larger state).
    expect(stats.states_covered).toBe(50);
    // The 2023 non-investor-owned ZIP table gives ZIP 94103 to the City & County of San Francisco; the ENERGY STAR
    // table (issue 26) adds PG&E there, and CenterPoint (a Texas distribution utility no NREL table lists) in Houston.
    const byZip = async (zip: string) =>
      (await request(t.app).get(`/api/v1/utilities/by-zip/${zip}`).expect(200)).body as Array<{ id: string; name: string }>;
    // Issue 45 replaced the name order: by estimated customers in the county, PG&E first (primary).
    expect((await byZip('94103')).map((u) => u.id)).toEqual(['14328', '16612']);
    expect((await byZip('77002')).map((u) => u.id)).toEqual(['8901']);
    expect((await byZip('02108')).map((u) => u.id)).toContain('54913');
    expect(report.coverage.pairsBySource).toEqual({
      non_iou_2023: expect.any(Number),
      iou_2011: expect.any(Number),
      energystar_2025: expect.any(Number),
      eia861_county_2018: expect.any(Number), // issue 45: the counties the 2011 investor-owned table misses
    });
    // Issue 45: downtown Columbus's primary utility is Ohio Power, from the EIA-861 county rule.
    expect((await byZip('43215')).map((u) => u.id)).toEqual(['14006', '13998', '4065']);
    // A tariff carries its utility's name from the utility records (issue 26): one name per utility.
    const cc = await request(t.app).get('/api/v1/tariffs/search?zip_code=94103&utility_name=san%20francisco').expect(200);
    expect(new Set(cc.body.items.map((i: { utility_name: string }) => i.utility_name))).toEqual(new Set([(await byZip('94103'))[1]!.name]));
    // Minneapolis gets Northern States Power's Minnesota tariffs only, not its North or South Dakota ones (all 26 of
    // its Minnesota records have expired, so only include_expired shows them).
    expect((await request(t.app).get('/api/v1/tariffs/search?zip_code=55401').expect(200)).body.total).toBe(0);
    const mpls = await request(t.app).get('/api/v1/tariffs/search?zip_code=55401&per_page=100&include_expired=true').expect(200);
    expect(mpls.body.total).toBe(26);
    expect(mpls.body.items.every((i: { state: string }) => i.state === 'MN')).toBe(true);
    // Houston: CenterPoint's tariffs, every one delivery only.
    const houston = await request(t.app).get('/api/v1/tariffs/search?zip_code=77002').expect(200);
    expect(houston.body.total).toBeGreaterThan(0);
    expect(houston.body.items.every((i: { service_type: string }) => i.service_type === 'delivery_only')).toBe(true);
    const search = await request(t.app).get('/api/v1/tariffs/search?zip_code=95616&sector=commercial').expect(200);
    expect(search.body.total).toBeGreaterThan(0);
    expect(search.body.items.every((i: { utility_id: string }) => i.utility_id === '14328')).toBe(true);

    // Issue 45 item 4: 701 records a later revision of their schedule supersedes (678 by the same name, 23 by a revision
    // number); 34 of them published no expiration date and were current, now expired the day before their successor
    // took effect (data/reference/README.md, "Revisions of one schedule"). The current count above drops by those 34.
    const rules = new Map<string, number>();
    for (const a of report.supersessions) rules.set(a.rule, (rules.get(a.rule) ?? 0) + 1);
    // Issue 45 (new-user pass): a name adding the words of secondary service to a schedule at secondary or unstated voltage
    // is the same name ("General Service (A14)" of 2015, "General Service (A14) Secondary Voltage" of 2020): 678 -> 698, and
    // 35 rather than 34 were current.
    // Issue 45 (third new-user pass): a higher revision number adding those words too (Entergy New Orleans LE-23 of 2016,
    // "Large Electric Service Secondary (LE-24)" of 2019): 23 -> 24 by number; LE-23 had ended, so still 35 were current.
    expect(Object.fromEntries(rules)).toEqual({ same_name: 698, revision_number: 24 });
    expect(report.supersessions.filter((a) => a.expirationDate !== null)).toHaveLength(35);
    // Georgia Power's TOU-MB-4 (2013) is superseded by TOU-MB-6 (2015), which TOU-MB-7 (2018) superseded in turn.
    const mb4 = (await request(t.app).get('/api/v1/tariffs/539f6f43ec4f024411eccc6f').expect(200)).body;
    expect(mb4).toMatchObject({ expiration_date: '2015-03-31', superseded_by: '55524f875457a304638b4567' });
    const mb6 = (await request(t.app).get('/api/v1/tariffs/55524f875457a304638b4567').expect(200)).body;
    expect(mb6).toMatchObject({ expiration_date: '2015-12-31', superseded_by: '5ae3acd05457a3a8689b4e70' });
    const georgia = await request(t.app).get('/api/v1/tariffs/search?utility_name=georgia%20power&per_page=100').expect(200);
    expect(georgia.body.items.map((i: { name: string }) => i.name).filter((n: string) => n.includes('TOU-MB'))).toEqual([
      'Time of Use- Multiple Business Schedule TOU-MB-7',
    ]);
  }, 240_000);

  it('a start imports when the stored data is missing or of another REFERENCE_DATA_VERSION, and only then', async () => {
    const fresh = await createTestApp();
    try {
      const db = fresh.deps.database.db;
      const logger = fresh.deps.logger;
      const dir = fixtureDir([real(FLAT), real(TOU)]);
      expect(await storedReferenceVersion(db)).toBeNull();
      await ensureReferenceData(db, logger, { dir });
      expect(await storedReferenceVersion(db)).toBe(REFERENCE_DATA_VERSION);
      const stamp = async () =>
        (
          (await db.execute(sql`select updated_at from system_state where key = ${REFERENCE_IMPORT_KEY}`)) as unknown as {
            rows: Array<{ updated_at: unknown }>;
          }
        ).rows[0].updated_at;
      const first = await stamp();
      // Same version stored: nothing is imported again (the stamp stays).
      await ensureReferenceData(db, logger, { dir: fixtureDir([real(FLAT)]) });
      expect(await stamp()).toEqual(first);
      expect(await countRows(db, 'tariffs')).toBe(2);
      // An import from an older release (another version, or none stamped): re-imported from the bundle given.
      await writeSystemState(db, REFERENCE_IMPORT_KEY, JSON.stringify({ imported: 2 }), new Date('2020-01-01T00:00:00Z'));
      await ensureReferenceData(db, logger, { dir: fixtureDir([real(FLAT)]) });
      expect(await storedReferenceVersion(db)).toBe(REFERENCE_DATA_VERSION);
      expect(await countRows(db, 'tariffs')).toBe(1);
    } finally {
      await fresh.stop();
    }
  });
});

async function countRows(db: TestApp['deps']['database']['db'], table: string): Promise<number> {
  const r = (await db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: Array<{ n: number }> };
  return Number(r.rows[0].n);
}
