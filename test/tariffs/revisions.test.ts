/**
 * Issue 45 item 4: when two records are revisions of one schedule, the older is superseded. The
 * worked example of data/reference/README.md ("Revisions of one schedule"), imported from the real
 * bundled records by the importer and read through the API.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { importReferenceData, type ImportReport } from '../../src/modules/tariffs/importer';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';
import { URDB_FILE } from '../../src/modules/tariffs/bundled';
import { URDB_2020PLUS_FILE } from '../../src/modules/tariffs/bundled-2020plus';

/** Georgia Power's "Time of Use - Multiple Business" schedule: revisions 4 (2013), 6 (2015, ended 2015-12-31) and 7 (2018). */
const TOU_MB_4 = '539f6f43ec4f024411eccc6f';
const TOU_MB_6 = '55524f875457a304638b4567';
const TOU_MB_7 = '5ae3acd05457a3a8689b4e70';
/** El Paso Electric (New Mexico) "General Service Secondary Voltage", 2014 and 2016. */
const EPE_2014 = '539f6cc8ec4f024411ecae3d';
const EPE_2016 = '5b75c07f5457a35b3caf0aea';
/** City of Vernon: GS-1 and GS-2 are two schedules, effective the same day, so TOU-GS-1 and TOU-GS-2 are too. */
const VERNON_GS_1 = '543699cb5257a3136da43497';
const VERNON_GS_2 = '54369d0b5257a3bd50a43497';
const VERNON_TOU_GS_1_2013 = '539fb7f0ec4f024bc1dc11b1';
const VERNON_TOU_GS_1 = '5437f59e5257a3881959604e';
const VERNON_TOU_GS_2 = '5a90a1e25457a3e011f7f399';
const LABELS = [
  TOU_MB_4,
  TOU_MB_6,
  TOU_MB_7,
  EPE_2014,
  EPE_2016,
  VERNON_GS_1,
  VERNON_GS_2,
  VERNON_TOU_GS_1_2013,
  VERNON_TOU_GS_1,
  VERNON_TOU_GS_2,
];

const NOW = new Date('2026-11-15T12:00:00Z');

/** A reference folder with the real EIA/ZIP files and a URDB file of the named bundled records only. */
function fixtureDir(labels: string[]): string {
  const wanted = new Set(labels);
  const lines = zlib
    .gunzipSync(fs.readFileSync(path.join(REFERENCE_DIR, URDB_FILE)))
    .toString('utf8')
    .split('\n')
    .filter((l) => wanted.has(/"label": ?"([0-9a-f]{24})"/.exec(l)?.[1] ?? ''));
  expect(lines).toHaveLength(labels.length);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ref-revisions-'));
  for (const f of fs.readdirSync(REFERENCE_DIR)) {
    if (f !== URDB_FILE && f !== URDB_2020PLUS_FILE) fs.symlinkSync(path.join(REFERENCE_DIR, f), path.join(dir, f));
  }
  fs.writeFileSync(path.join(dir, URDB_FILE), zlib.gzipSync(lines.join('\n') + '\n'));
  fs.writeFileSync(path.join(dir, URDB_2020PLUS_FILE), '');
  return dir;
}

describe('revisions of one schedule: the older is superseded (issue 45 item 4)', () => {
  let t: TestApp;
  let report: ImportReport;
  const get = async (url: string) => (await request(t.app).get(`/api/v1${url}`).expect(200)).body;
  const ids = (page: { items: Array<{ id: string }> }) => page.items.map((i) => i.id).sort();

  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    report = await importReferenceData(t.deps.database.db, { dir: fixtureDir(LABELS), now: NOW });
  });
  afterAll(() => t.stop());

  it('the importer reports each record a later revision supersedes, with its successor and the date it gave', () => {
    expect(report.imported).toBe(LABELS.length);
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect([...report.supersessions].sort(byId)).toEqual(
      [
        { id: TOU_MB_4, supersededBy: TOU_MB_6, rule: 'revision_number', expirationDate: '2015-03-31' },
        { id: TOU_MB_6, supersededBy: TOU_MB_7, rule: 'revision_number', expirationDate: null },
        { id: EPE_2014, supersededBy: EPE_2016, rule: 'same_name', expirationDate: '2016-06-30' },
        { id: VERNON_TOU_GS_1_2013, supersededBy: VERNON_TOU_GS_1, rule: 'same_name', expirationDate: null },
      ].sort(byId),
    );
  });

  it('Georgia Power TOU-MB-4 is no longer current: it expires the day before TOU-MB-6 took effect, and names it', async () => {
    expect(await get(`/tariffs/${TOU_MB_4}`)).toMatchObject({
      name: 'SCHEDULE TOU-MB-4 TIME OF USE - MULTIPLE BUSINESS',
      effective_date: '2013-01-01',
      expiration_date: '2015-03-31',
      superseded_by: TOU_MB_6,
    });
    // TOU-MB-6 keeps the end date it published and names TOU-MB-7, the current revision.
    expect(await get(`/tariffs/${TOU_MB_6}`)).toMatchObject({
      effective_date: '2015-04-01',
      expiration_date: '2015-12-31',
      superseded_by: TOU_MB_7,
    });
    expect(await get(`/tariffs/${TOU_MB_7}`)).toMatchObject({ effective_date: '2018-04-01', expiration_date: null, superseded_by: null });

    // Search, stats (and so rate analysis and due diligence, which take current tariffs) offer only TOU-MB-7.
    expect(ids(await get('/tariffs/search?utility_name=georgia%20power'))).toEqual([TOU_MB_7]);
    expect(ids(await get('/tariffs/search?utility_name=georgia%20power&include_expired=true'))).toEqual(
      [TOU_MB_4, TOU_MB_6, TOU_MB_7].sort(),
    );
  });

  it("the same name with a later effective date: El Paso Electric's 2014 record ends when the 2016 one starts", async () => {
    expect(await get(`/tariffs/${EPE_2014}`)).toMatchObject({ expiration_date: '2016-06-30', superseded_by: EPE_2016 });
    expect(await get(`/tariffs/${EPE_2016}`)).toMatchObject({ expiration_date: null, superseded_by: null });
  });

  it('Vernon numbers distinct schedules: TOU-GS-1 and TOU-GS-2 both stay current', async () => {
    expect(ids(await get('/tariffs/search?utility_name=vernon'))).toEqual(
      [VERNON_GS_1, VERNON_GS_2, VERNON_TOU_GS_1, VERNON_TOU_GS_2].sort(),
    );
    expect(await get(`/tariffs/${VERNON_TOU_GS_1}`)).toMatchObject({ expiration_date: null, superseded_by: null });
    // Its 2013 record of TOU-GS-1 had ended (2014-09-30) and now names the 2014 one.
    expect(await get(`/tariffs/${VERNON_TOU_GS_1_2013}`)).toMatchObject({ expiration_date: '2014-09-30', superseded_by: VERNON_TOU_GS_1 });
  });

  it('stats count what search finds: 6 current, 10 in all', async () => {
    expect((await get('/tariffs/stats')).total_tariffs).toBe(6);
    expect((await get('/tariffs/search')).total).toBe(6);
    expect((await get('/tariffs/stats?include_expired=true')).total_tariffs).toBe(10);
  });
});
