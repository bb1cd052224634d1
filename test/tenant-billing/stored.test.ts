import zlib from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import type { TestApp } from '../helpers/app';
import { rubsCalculations } from '../../src/modules/tenant-billing/tables';
import { as, billedProperty, calculateBody, startBillingApp } from './helpers';

/** Every answer built from a stored calculation, as the client receives it (text, byte for byte). */
async function answers(t: TestApp, token: string, id: string, unitIds: string[]): Promise<string[]> {
  const texts = [
    (await as(t, token).get(`/billing/calculations/${id}`).expect(200)).text,
    (await as(t, token).get(`/billing/calculations/${id}/export.csv`).expect(200)).text,
  ];
  for (const unitId of unitIds) {
    texts.push((await as(t, token).get(`/billing/calculations/${id}/statements/${unitId}`).expect(200)).text);
    texts.push((await as(t, token).get(`/billing/calculations/${id}/statements/${unitId}`).set('Accept', 'text/html').expect(200)).text);
  }
  return texts;
}

async function storedText(t: TestApp, id: string): Promise<string> {
  const [row] = await t.deps.database.db
    .select({ result: rubsCalculations.result })
    .from(rubsCalculations)
    .where(eq(rubsCalculations.id, id));
  return row!.result;
}

describe('the stored form of a calculation (rubs_calculations.result)', () => {
  let t: TestApp;
  let alice: string;
  let id: string;
  let posted: string;
  const units = [
    { unit_id: 'A', tenant_name: 'Zoë "Q", <b>', sqft: 1000.5, occupant_count: 1, move_out: '2026-01-20' },
    { unit_id: 'B', tenant_name: 'b', sqft: 500, occupant_count: 3, move_in: '2026-01-17' },
    { unit_id: 'C', tenant_name: '', sqft: 700, occupant_count: 2, is_vacant: true },
  ];
  beforeAll(async () => {
    ({ t, alice } = await startBillingApp());
    const p = await billedProperty(t, alice, { method: 'sqft_occupant', rounding: 'exact', admin_fee_percent: 2.5 });
    const res = await as(t, alice)
      .post('/billing/calculate-rubs', calculateBody(p.propertyId, p.configId, { units, total_amount: 1234.57 }))
      .expect(200);
    id = res.body.id;
    posted = res.text;
  });
  afterAll(() => t.stop());

  it('is plain JSON: the answer without its unit bills, and the unit bills as rows of values', async () => {
    const doc = JSON.parse(await storedText(t, id));
    // Issue 30: the status fields are columns of the row (they change), not part of the stored answer.
    const {
      unit_bills: _bills,
      status: _s,
      supersedes: _p,
      superseded_by: _b,
      void_reason: _r,
      voided_at: _v,
      ...header
    } = JSON.parse(posted);
    expect(doc).toEqual({
      format: 3,
      calculation: header,
      units: [
        ['A', 'Zoë "Q", <b>', 1000.5, 1, expect.any(Number), expect.any(Number), expect.any(Number), 20, null, '2026-01-20'],
        ['B', 'b', 500, 3, expect.any(Number), expect.any(Number), expect.any(Number), 15, '2026-01-17', null],
        ['C', '', 700, 2, 0, 0, 0, 0],
      ],
    });
    const { posting: _posting, ...stored } = (await as(t, alice).get(`/billing/calculations/${id}`).expect(200)).body;
    expect(JSON.stringify(stored)).toBe(posted);
  });

  it('a row stored in the old deflated form (format 2) reads to the same answers', async () => {
    const before = await answers(t, alice, id, ['A', 'B', 'C']);
    const plain = JSON.parse(await storedText(t, id));
    // The old form, built exactly as the code before issue 28 wrote it.
    const deflated = zlib.deflateRawSync(JSON.stringify(plain.units), { level: 1 });
    const legacy = JSON.stringify({ format: 2, calculation: plain.calculation, units_deflated: deflated.toString('base64') });
    await t.deps.database.db.execute(sql`update rubs_calculations set result = ${legacy} where id = ${id}`);
    expect(await storedText(t, id)).toBe(legacy);
    expect(await answers(t, alice, id, ['A', 'B', 'C'])).toEqual(before);
    const { posting: _posting, ...detail } = JSON.parse(before[0]);
    expect(JSON.stringify(detail)).toBe(posted);
  });

  it('a row stored before interval proration (issue 50) reads as basis days, in the same key order', async () => {
    const doc = JSON.parse(await storedText(t, id));
    const { basis, ...older } = doc.calculation.allocation_basis;
    expect(basis).toBe('days');
    const text = JSON.stringify({ ...doc, calculation: { ...doc.calculation, allocation_basis: older } });
    await t.deps.database.db.execute(sql`update rubs_calculations set result = ${text} where id = ${id}`);
    const { posting: _posting, ...detail } = (await as(t, alice).get(`/billing/calculations/${id}`).expect(200)).body;
    expect(JSON.stringify(detail)).toBe(posted);
  });
});
