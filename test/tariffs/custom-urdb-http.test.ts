/**
 * Issue 31 over HTTP: the tariffs of the engine's hand-worked tests (engine.tiers, engine.tou,
 * engine.demand and engine.energy, worked by hand per NREL SAM's rules) are seeded into the catalog,
 * each one's raw URDB record is POSTed to /tariffs/custom, and every case of those tests that the API
 * can express (usage_kwh, month, demand_kw, usage_profile, tax_rate_percent) is priced by
 * /calculate on the catalog id and on the custom id: line items, total and summary must be the same,
 * and a case the catalog refuses (422) must be refused alike. The custom tariff is its owner's only.
 */
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { seedTariffs } from '../helpers/tariffs';
import { as } from '../pm/helpers';
import { readUrdbLines } from '../../src/modules/tariffs/bundled';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';
import type { Tariff } from '../../src/modules/tariffs/tariff.model';

import { CASES, IDS, LABELS } from '../fixtures/engine-cases';
import { errorAnswer } from '../helpers/error-body';

/** The rate and classification fields of a tariff detail (GET /tariffs/{id}, POST /tariffs/custom). */
const RATE_FIELDS = [
  'name',
  'sector',
  'rate_type',
  'has_tou',
  'has_demand',
  'has_net_metering',
  'service_type',
  'effective_date',
  'applicability',
  'energy_rates',
  'demand_rates',
  'fixed_charges',
  'riders',
  'minimum_charge',
  'utility_type',
  'unit',
] as const;
const pick = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

describe('a URDB record re-created as a custom tariff prices the hand-worked cases as the catalog (issue 31)', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const catalog = new Map<string, Tariff>();
  const custom = new Map<string, { id: string; assumptions: string[]; detail: Record<string, unknown> }>();

  beforeAll(async () => {
    t = await createTestApp();
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
    for (const tariff of await seedTariffs(t.deps.database, LABELS)) catalog.set(tariff.id, tariff);
    const records = new Map(readUrdbLines(REFERENCE_DIR, new Set(LABELS)).map((l) => [l.record?.label, l.record]));
    for (const label of LABELS) {
      const record = records.get(label);
      if (!record) throw new Error(`record ${label} is not in the bundle`);
      const res = await as(t, alice).post('/tariffs/custom', { urdb: record });
      if (res.status !== 201) throw new Error(`POST /tariffs/custom ${label}: ${res.status} ${JSON.stringify(res.body)}`);
      custom.set(label, { id: res.body.id, assumptions: res.body.versions[0].assumptions, detail: res.body });
    }
  });
  afterAll(() => t.stop());

  const calc = (token: string, body: unknown) =>
    request(t.app)
      .post('/api/v1/calculate')
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);

  it("creates one custom tariff per record, with the catalog tariff's rates and classification", async () => {
    expect(LABELS).toHaveLength(16);
    expect(custom.size).toBe(16);
    for (const label of LABELS) {
      const c = custom.get(label)!;
      expect(c.id).toMatch(/^ct_[0-9a-f]{32}$/);
      expect(c.detail).toMatchObject({ custom: true, source_url: catalog.get(label)!.sourceUrl });
      const shown = (await as(t, alice).get(`/tariffs/${label}`).expect(200)).body;
      expect({ label, ...pick(c.detail, RATE_FIELDS) }).toEqual({ label, ...pick(shown, RATE_FIELDS) });
    }
  });

  it('covers every case of the hand-worked tests that the API can express', () => {
    expect(CASES).toHaveLength(38);
    expect(new Set(CASES.map((c) => c.tariff)).size).toBe(Object.keys(IDS).length);
  });

  it.each(CASES.map((c, i) => [i + 1, c.tariff, c] as const))(
    'case %i (%s): the custom tariff prices as the catalog',
    async (_n, key, c) => {
      const label = IDS[key];
      const own = custom.get(label)!;
      const fromCatalog = await calc(alice, { tariff_id: label, ...c.body });
      const fromCustom = await calc(alice, { tariff_id: own.id, ...c.body });
      expect(fromCustom.status).toBe(fromCatalog.status);
      if (c.status) {
        expect(fromCatalog.status).toBe(c.status);
        // A refusal may name the tariff: the same words, each with its own id.
        // Each answer names its own request (an error's request_id): the rest is the same.
        const same = (body: unknown) => JSON.stringify({ ...(body as object), request_id: undefined });
        expect(same(fromCustom.body).split(own.id).join(label)).toBe(same(fromCatalog.body));
        return;
      }
      expect(fromCatalog.status).toBe(200);
      const a = fromCatalog.body;
      const b = fromCustom.body;
      expect(a.tariff_id).toBe(label);
      expect(b.tariff_id).toBe(own.id);
      if (c.total !== undefined) expect(a.total_cost).toBe(c.total);
      expect(a.line_items.length).toBeGreaterThan(0);
      expect(b.line_items).toEqual(a.line_items);
      expect(b.total_cost).toBe(a.total_cost);
      expect(b.summary).toEqual(a.summary);
      const { tariff_id: _a, assumptions: assumedA, ...restA } = a;
      const { tariff_id: _b, assumptions: assumedB, ...restB } = b;
      expect(restB).toEqual(restA);
      // Assumptions: every one of the catalog's, its data age and class included (the version keeps the record's
      // end date and classification note); the custom tariff adds only its version's notes.
      expect(assumedB).toEqual(expect.arrayContaining(assumedA as string[]));
      const allowed = new Set([...(assumedA as string[]), ...own.assumptions]);
      expect((assumedB as string[]).filter((s) => !allowed.has(s))).toEqual([]);
    },
  );

  it("is its owner's only: another account gets 404 for the custom id", async () => {
    for (const label of [IDS.anTouB, IDS.coincident]) {
      const id = custom.get(label)!.id;
      await calc(bob, { tariff_id: id, usage_kwh: 1000, month: 7, demand_kw: 200 })
        .expect(404)
        .expect(errorAnswer({ detail: 'Tariff not found' }));
      await as(t, bob)
        .get(`/tariffs/${id}`)
        .expect(404)
        .expect(errorAnswer({ detail: 'Tariff not found' }));
      // The catalog record stays everyone's.
      await calc(bob, { tariff_id: label, usage_kwh: 1000, month: 7, demand_kw: 200 }).expect(200);
    }
  });
});
