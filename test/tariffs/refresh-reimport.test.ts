/**
 * Issue 49: a re-import of the bundled data (an upgrade, `npm run data:import`) keeps what a refresh
 * from the URDB API fetched: the refreshed record replaces the bundled one of its label, and the
 * revisions rule runs over both.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { importReferenceData } from '../../src/modules/tariffs/importer';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';
import { URDB_FILE } from '../../src/modules/tariffs/bundled';
import { URDB_2020PLUS_FILE } from '../../src/modules/tariffs/bundled-2020plus';
import { recordedRecords, startUrdbStandIn, type StandIn } from '../helpers/urdb-stand-in';

const CLP = '4176';
const RATE1_2017 = '5982002d5457a3ac198bbc44';
const RATE1_2022 = '62fe87aff6dee418ab7bfcf9';
const NOW = new Date('2026-11-28T12:00:00Z');

// A run loads the utility reference files and merges page by page: minutes on a busy machine.
jest.setTimeout(240_000);

/** A reference folder with the real EIA/ZIP files and, as the URDB bundle, Connecticut Light & Power's bundled records only. */
function fixtureDir(): string {
  const lines = recordedRecords(Number(CLP), { newer: false }).map((r) => JSON.stringify(r));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ref-refresh-'));
  for (const f of fs.readdirSync(REFERENCE_DIR)) {
    if (f !== URDB_FILE && f !== URDB_2020PLUS_FILE) fs.symlinkSync(path.join(REFERENCE_DIR, f), path.join(dir, f));
  }
  fs.writeFileSync(path.join(dir, URDB_FILE), zlib.gzipSync(lines.join('\n') + '\n'));
  fs.writeFileSync(path.join(dir, URDB_2020PLUS_FILE), '');
  return dir;
}

describe('a re-import keeps refreshed records', () => {
  let api: StandIn;
  let t: TestApp;
  const dir = fixtureDir();

  beforeAll(async () => {
    api = await startUrdbStandIn(new Map([[CLP, recordedRecords(Number(CLP), { newer: true })]]));
    t = await createTestApp({ now: () => NOW, env: { URDB_API_KEY: 'test-key', URDB_API_URL: api.url, URDB_API_BACKOFF_MS: '0' } });
    await importReferenceData(t.deps.database.db, { dir, now: NOW });
  });
  afterAll(async () => {
    await t.stop();
    await api.close();
  });

  it('the refreshed revision and its supersession survive the import of the bundled files', async () => {
    const refresh = t.services.tariffRefresh;
    const run = await refresh.run((await refresh.create({ eia: [CLP] })).id);
    expect(run.report.new).toEqual([RATE1_2022]);

    const report = await importReferenceData(t.deps.database.db, { dir, now: new Date('2026-11-29T00:00:00Z') });
    expect(report.imported).toBe(15);
    const fresh = (await request(t.app).get(`/api/v1/tariffs/${RATE1_2022}`).expect(200)).body;
    expect(fresh).toMatchObject({ source: 'refreshed', source_updated_at: NOW.toISOString() });
    const old = (await request(t.app).get(`/api/v1/tariffs/${RATE1_2017}`).expect(200)).body;
    expect(old).toMatchObject({ source: 'bundled', superseded_by: RATE1_2022, expiration_date: '2018-06-30' });
  });
});
