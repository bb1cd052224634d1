import { readUrdb2020PlusLines, URDB_2020PLUS_FILE } from './bundled-2020plus';
import { readUrdbLines, type RawLine } from './bundled';
import { normalizeUrdbRecord } from './urdb.normalize';
import { REFERENCE_DIR } from '../utilities/reference';
import type { Tariff } from './tariff.model';

// Expected values below were read by hand from the raw JSON lines of data/reference/urdb_tariffs_2020plus.jsonl.
const PGE_E1_T = '60e4c63a5457a3a91679e0f2'; // PG&E E-1 Baseline Region T, startdate 1614585600
const CONED_SC9_J = '67b78db9c1ba7352cd0c0853'; // ConEd SC-9 Rate III Zone J [NYC], startdate 1738393200

const IMPORTED_AT = new Date('2026-01-01T00:00:00Z');
let lines: RawLine[];
const tariffs = new Map<string, Tariff>();

beforeAll(() => {
  lines = readUrdb2020PlusLines(REFERENCE_DIR);
  for (const { record } of lines) {
    const r = normalizeUrdbRecord(record!, { state: null, importedAt: IMPORTED_AT });
    if (r.ok) tariffs.set(r.tariff.id, r.tariff);
  }
});

describe(URDB_2020PLUS_FILE, () => {
  it('holds the 10 records that passed review, each readable, numbered by its own lines', () => {
    expect(lines).toHaveLength(10);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines.filter((l) => l.record === null || l.error !== undefined)).toEqual([]);
    const labels = lines.map((l) => l.record!.label);
    expect(new Set(labels).size).toBe(10);
  });

  it('normalises every record without a skip or a warning, with a source URL and a 2021-2025 effective date', () => {
    for (const { record } of lines) {
      const r = normalizeUrdbRecord(record!, { state: null, importedAt: IMPORTED_AT });
      expect({ label: record!.label, ok: r.ok, warnings: r.ok ? r.warnings : r.reason }).toEqual({
        label: record!.label,
        ok: true,
        warnings: [],
      });
      if (!r.ok) continue;
      // tariffs.source_url is NOT NULL: a record without `uri` would fail the whole import transaction.
      expect(r.tariff.sourceUrl).toMatch(new RegExp(`/rate/view/${record!.label}$`));
      expect(r.tariff.effectiveDate! >= '2021-01-01' && r.tariff.effectiveDate! <= '2025-12-31').toBe(true);
    }
  });

  it('shares no label with the main bundle', () => {
    const labels = new Set(lines.map((l) => l.record!.label));
    // readUrdbLines with a label set returns only main-bundle records whose own label is in the set.
    expect(readUrdbLines(REFERENCE_DIR, labels)).toEqual([]);
  });

  it('PG&E E-1 Region T: effective 2021-03-01, summer tier 2 at $0.32596/kWh up to 27.2 kWh/day', () => {
    const t = tariffs.get(PGE_E1_T)!;
    expect(t.effectiveDate).toBe('2021-03-01');
    expect(t.structure.energy!.periods[0][1]).toEqual({ max: 27.2, unit: 'kWh daily', rate: 0.32596, sell: null });
    expect(t.structure.minimumCharge).toEqual({ amount: 10, frequency: 'monthly' });
  });

  it('ConEd SC-9 Zone J: effective 2025-02-01, energy 0.10171 + 0.031 $/kWh, summer 8am-6pm demand 40.17 + 10.01 $/kW', () => {
    const t = tariffs.get(CONED_SC9_J)!;
    expect(t.effectiveDate).toBe('2025-02-01');
    expect(t.structure.energy!.periods).toEqual([[{ max: null, unit: 'kWh', rate: 0.13271, sell: null }]]);
    expect(t.structure.demandTou!.periods[3]).toEqual([{ max: null, rate: 50.18 }]);
    expect(t.structure.demandTou!.weekday[6][8]).toBe(3); // July, 08:00
  });
});
