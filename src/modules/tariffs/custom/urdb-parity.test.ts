/**
 * Issue 31: "A URDB record re-created as a custom tariff prices every case exactly as the catalog
 * record does". Every record of the bundled data that the catalog import accepts is read as the
 * import reads it (readUrdbLines + readUrdb2020PlusLines, normalizeBundle with the EIA-861
 * reference), re-imported through importUrdbRecord with the same utility state and name, built into
 * the engine's Tariff the way the service does (a stored row and version, tariffOfVersion), and then:
 *  - (issue 45 item 7) unless it has tiers out of order, which the catalog repairs (zero-width tier
 *    dropped) and a custom tariff refuses at the tier's JSON path (urdb.check.ts): the 7 listed below;
 *  - its structure and classification must equal the catalog tariff's;
 *  - every case of the grid must price to identical line items, total and summary on both, or fail
 *    with the same BillingError on both.
 *
 * Grid (all of it, for every record): months 1 and 7 x usage_kwh 0, 350, 3500, 25000, without
 * demand_kw; for tariffs whose bill requires demand (the engine throws 'demand_required' without it)
 * the same 8 cases again with demand_kw 40. Mismatches are collected and asserted once at the end
 * (one expect per case would dominate the run time), so a failure lists every discrepancy.
 */
import { isDeepStrictEqual } from 'node:util';
import { normalizeBundle, readUrdbLines, tariffState } from '../bundled';
import { readUrdb2020PlusLines } from '../bundled-2020plus';
import { REFERENCE_DIR } from '../../utilities/reference';
import { utilityReference } from '../../../../test/helpers/tariffs';
import type { Tariff } from '../tariff.model';
import type { UrdbRecord } from '../urdb.record';
import { bundledLoadShapes } from '../../pricing/load-shapes';
import { BillingError, calculateBill, type BillRequest, type BillResult } from '../../pricing/engine';
import { importUrdbRecord } from './urdb.import';
import { normalizeUrdbRecord } from '../urdb.normalize';
import { tariffOfVersion } from './versions';
import type { StoredCustomTariff } from './repository';

const IMPORTED_AT = new Date('2026-01-01T00:00:00Z');
const MONTHS = [1, 7];
const USAGES = [0, 350, 3500, 25_000];
const DEMAND_KW = 40;

const shapes = bundledLoadShapes();
const viaJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The stored row and first version POST /tariffs/custom {urdb} writes for this import (service.ts create). */
function storedFrom(
  imported: { tariff: Tariff; assumptions: string[] },
  utility: { name: string; state: string | null } | null,
  eiaid: string,
  n: number,
): StoredCustomTariff {
  const t = imported.tariff;
  const at = new Date('2026-02-01T00:00:00Z');
  const id = `ct_${n.toString(16).padStart(32, '0')}`;
  return {
    row: {
      id,
      ownerId: 'owner',
      name: t.name,
      utilityId: utility ? eiaid : null,
      utilityName: utility?.name ?? t.utilityName,
      state: utility?.state ?? null,
      sector: t.sector,
      utilityType: 'electric',
      unit: 'kWh',
      serviceType: t.serviceType,
      description: t.description,
      sourceUrl: t.sourceUrl,
      createdAt: at,
      updatedAt: at,
      retiredAt: null,
    },
    versions: [
      {
        tariffId: id,
        effectiveDate: t.effectiveDate ?? '2026-02-01',
        expirationDate: t.expirationDate,
        // jsonb columns: what the database hands back is the JSON of what was written.
        structure: viaJson(t.structure),
        applicability: viaJson(t.applicability),
        assumptions: viaJson(imported.assumptions),
        source: 'urdb',
        createdAt: at,
      },
    ],
  };
}

type Outcome =
  | { bill: Pick<BillResult, 'lineItems' | 'totalCostCents' | 'totalCost' | 'summary' | 'season'> }
  | { error: { code: string; field?: string; message: string } };

function price(tariff: Tariff, req: BillRequest): Outcome {
  try {
    const b = calculateBill(tariff, req, shapes);
    return {
      bill: { lineItems: b.lineItems, totalCostCents: b.totalCostCents, totalCost: b.totalCost, summary: b.summary, season: b.season },
    };
  } catch (err) {
    if (err instanceof BillingError) {
      // A message may name the tariff (profile errors): compare it without the id.
      return { error: { code: err.code, field: err.field, message: err.message.split(tariff.id).join('<id>') } };
    }
    return { error: { code: `unexpected ${(err as Error).name}`, message: (err as Error).message } };
  }
}

const CLASS_FIELDS = ['rateType', 'hasTou', 'hasDemand', 'hasNetMetering', 'serviceType', 'sector'] as const;

/**
 * Issue 45 item 7: the bundled records the catalog imports after dropping a tier whose max does not rise
 * (data/reference/README.md "Upstream errors"), which a custom tariff refuses at the tier's path.
 */
const TIERS_OUT_OF_ORDER = [
  '539f6cd9ec4f024411ecaed7',
  '539f6d4cec4f024411ecb435',
  '539f74d3ec4f024411ed0c8b',
  '539fbdb4ec4f024c27d87e27',
  '539fc8cfec4f024d2f53ea68',
  '5552513f5457a304638b4568',
  '5d1a2f355457a3f711a745b5',
];
const TIER_MAX_PATH = /^urdb\.(energyratestructure|demandratestructure|flatdemandstructure|coincidentratestructure)\[\d+\]\[\d+\]\.max$/;
/** A schedule value (or flatdemandmonths entry) at its exact path. */
const SCHEDULE_VALUE_PATH = /^urdb\.((energy|demand)(weekday|weekend)schedule\[\d+\]|coincidentschedule\[\d+\]|flatdemandmonths)\[\d+\]$/;

describe('a URDB record re-created as a custom tariff prices as the catalog record (issue 31)', () => {
  const ref = utilityReference();
  const lines = [...readUrdbLines(REFERENCE_DIR), ...readUrdb2020PlusLines(REFERENCE_DIR)];
  const bundle = normalizeBundle(lines, ref, IMPORTED_AT);
  // The record each catalog tariff came from: the first line with its label (normalizeBundle skips later ones).
  const recordOf = new Map<string, UrdbRecord>();
  for (const { record } of lines) {
    if (record && typeof record.label === 'string' && !recordOf.has(record.label)) recordOf.set(record.label, record);
  }

  interface Pair {
    label: string;
    catalog: Tariff;
    custom: Tariff;
  }
  const pairs: Pair[] = [];

  it('reads the whole bundle as the catalog import does', () => {
    // 13,679 records at the time of writing, 13,666 of them imported.
    expect(lines.length).toBeGreaterThan(13_000);
    expect(bundle.tariffs.length).toBeGreaterThan(13_000);
    expect(bundle.tariffs.length + bundle.skipped.length).toBe(bundle.recordsRead);
  });

  it("a record the catalog rejects is rejected as a custom tariff too, for the catalog's reason or at the value's path", () => {
    const rejected = bundle.skipped.filter((s) => recordOf.has(s.id));
    expect(rejected.length).toBe(bundle.skipped.length);
    const outcomes = rejected.map(({ id, reason }) => {
      const record = recordOf.get(id) as UrdbRecord;
      const r = importUrdbRecord(
        record as unknown as Record<string, unknown>,
        { state: tariffState(record, ref), name: null },
        IMPORTED_AT,
      );
      return { id, reason, errors: r.ok ? [] : r.errors, message: r.ok ? 'accepted' : r.errors.map((e) => e.message).join('; ') };
    });
    // Issue 45 item 7: a schedule naming a period without rates is refused at each wrong value's path (urdb.check.ts).
    const atPath = (o: (typeof outcomes)[number]) =>
      /refers to period/.test(o.reason) && o.errors.length > 0 && o.errors.every((e) => SCHEDULE_VALUE_PATH.test(e.field));
    expect(outcomes.filter((o) => o.message !== o.reason && !atPath(o))).toEqual([]);
    expect(outcomes.filter(atPath).length).toBe(4);
  });

  const outOfOrder: Array<{ label: string; fields: string[]; repaired: boolean }> = [];

  it("every imported record re-imports as a custom tariff with the catalog's structure and classification, but for tiers out of order", () => {
    const problems: string[] = [];
    bundle.tariffs.forEach((catalog, n) => {
      const record = recordOf.get(catalog.id);
      if (!record) {
        problems.push(`${catalog.id}: no record`);
        return;
      }
      // The utility as the catalog import used it (bundled.ts normalizeBundle).
      const state = tariffState(record, ref);
      const known = ref.utilities.get(String(record.eiaid));
      const name = known?.name ?? null;
      const imported = importUrdbRecord(record as unknown as Record<string, unknown>, { state, name }, IMPORTED_AT);
      if (!imported.ok && imported.errors.every((e) => TIER_MAX_PATH.test(e.field))) {
        // The catalog priced it by dropping the tier; the caller's own record is refused instead.
        const normalised = normalizeUrdbRecord(record, { state, name, importedAt: IMPORTED_AT });
        const repaired = normalised.ok && normalised.warnings.some((w) => w.endsWith('zero-width tier dropped'));
        outOfOrder.push({ label: catalog.id, fields: imported.errors.map((e) => e.field), repaired });
        return;
      }
      if (!imported.ok) {
        problems.push(`${catalog.id}: import rejected: ${JSON.stringify(imported.errors)}`);
        return;
      }
      const t = imported.tariff;
      if (!isDeepStrictEqual(t.structure, catalog.structure)) problems.push(`${catalog.id}: structure differs`);
      if (!isDeepStrictEqual(t.applicability, catalog.applicability)) problems.push(`${catalog.id}: applicability differs`);
      for (const f of CLASS_FIELDS) {
        if (t[f] !== catalog[f]) problems.push(`${catalog.id}: ${f} ${String(t[f])} (catalog ${String(catalog[f])})`);
      }
      // In the database every catalog tariff's utility is a utility row (EIA-861, or named by URDB only), and the
      // service stores that row's state (not tariffState's: the two differ for some multi-state utilities; not priced).
      const row = { name: catalog.utilityName, state: known?.state ?? null };
      const custom = tariffOfVersion(storedFrom(imported, row, catalog.utilityId, n), 0);
      if (!isDeepStrictEqual(custom.structure, catalog.structure)) problems.push(`${catalog.id}: stored version's structure differs`);
      if (!isDeepStrictEqual(custom.applicability, catalog.applicability))
        problems.push(`${catalog.id}: stored version's applicability differs`);
      for (const f of CLASS_FIELDS) {
        if (custom[f] !== catalog[f])
          problems.push(`${catalog.id}: stored version's ${f} ${String(custom[f])} (catalog ${String(catalog[f])})`);
      }
      pairs.push({ label: catalog.id, catalog, custom });
    });
    expect(problems).toEqual([]);
    expect(outOfOrder.map((o) => o.label).sort()).toEqual(TIERS_OUT_OF_ORDER);
    expect(outOfOrder.filter((o) => !o.repaired)).toEqual([]);
    expect(outOfOrder.find((o) => o.label === '539f6cd9ec4f024411ecaed7')?.fields).toEqual(['urdb.energyratestructure[0][3].max']);
    expect(pairs).toHaveLength(bundle.tariffs.length - TIERS_OUT_OF_ORDER.length);
    // Show the first structural difference in full, if any (the list above only names them).
    const firstDiff = pairs.find((p) => !isDeepStrictEqual(p.custom.structure, p.catalog.structure));
    if (firstDiff) expect(firstDiff.custom.structure).toEqual(firstDiff.catalog.structure);
  });

  it('every case of the grid prices identically on the catalog and the custom tariff', () => {
    expect(pairs.length).toBe(bundle.tariffs.length - TIERS_OUT_OF_ORDER.length);
    const mismatches: string[] = [];
    let cases = 0;
    let priced = 0;
    let demandTariffs = 0;
    const errors = new Map<string, number>();
    for (const { label, catalog, custom } of pairs) {
      let needsDemand = false;
      const run = (req: BillRequest) => {
        cases++;
        const a = price(catalog, req);
        const b = price(custom, req);
        if ('error' in a) {
          errors.set(a.error.code, (errors.get(a.error.code) ?? 0) + 1);
          if (a.error.code === 'demand_required') needsDemand = true;
        } else priced++;
        if (!isDeepStrictEqual(a, b)) {
          mismatches.push(`${label} ${JSON.stringify(req)}: catalog ${JSON.stringify(a)} custom ${JSON.stringify(b)}`);
        }
      };
      for (const month of MONTHS) for (const usageKwh of USAGES) run({ usageKwh, month });
      if (needsDemand) {
        demandTariffs++;
        for (const month of MONTHS) for (const usageKwh of USAGES) run({ usageKwh, month, demandKw: DEMAND_KW });
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(mismatches).toHaveLength(0);
    // Not vacuous: every tariff priced on the 8 base cases, the demand tariffs on 8 more.
    expect(cases).toBe(pairs.length * 8 + demandTariffs * 8);
    // At the time of writing: 158,792 cases, 109,328 of them priced (the others demand_required), 6,183 demand tariffs.
    expect(cases).toBeGreaterThan(150_000);
    expect(priced).toBeGreaterThan(100_000);
    expect(demandTariffs).toBeGreaterThan(5000);
    // The only errors on the grid are the demand tariffs' cases without demand_kw.
    expect(Object.fromEntries(errors)).toEqual({ demand_required: demandTariffs * 8 });
  });
});
