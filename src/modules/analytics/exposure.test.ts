import { emissionsYearOf, propertyExposure, yearEnergy } from './exposure';
import type { MetricsInputRow } from './rollups-sql';

/** Month index of YYYY-MM (year x 12 + month - 1). */
const m = (y: number, month: number) => y * 12 + month - 1;
const MARCH_2026 = m(2026, 3);

/**
 * The README's New York office (ZIP 10001, 40,000 sf of group B): 2025 billed 1,000,000 kWh and 20,000 therms,
 * spread here over the twelve months as the rollups hold them (Wh and thousandths of a therm).
 */
function office(overrides: Partial<MetricsInputRow> = {}): MetricsInputRow {
  const series: NonNullable<MetricsInputRow['series']> = [];
  for (let month = 1; month <= 12; month++) {
    series.push([m(2025, month), 'electric', 0, month === 12 ? 83_333_337 : 83_333_333, 31]);
    series.push([m(2025, month), 'gas', 0, month === 12 ? 1_666_663 : 1_666_667, 31]);
  }
  // A 2026 month and a 2024 one: not of the year.
  series.push([m(2026, 1), 'electric', 0, 5_000_000, 31], [m(2024, 12), 'gas', 0, 9_000_000, 31]);
  return {
    id: 'p1',
    name: 'Midtown office',
    zip_code: '10001',
    state: 'NY',
    city: 'New York',
    sqft: 40000,
    occupancy: [['B', 40000]],
    property_uses: null,
    series,
    stored_penalty_period: null,
    stored_penalty_cents: null,
    stored_penalty_alerts: null,
    ...overrides,
  } as unknown as MetricsInputRow;
}

describe('emissions exposure in the recompute (README "Emissions and building-performance exposure")', () => {
  it('the year is the latest complete calendar year: the one before the current month', () => {
    expect(emissionsYearOf(MARCH_2026)).toBe(2025);
    expect(emissionsYearOf(m(2026, 1))).toBe(2025);
    expect(emissionsYearOf(m(2025, 12))).toBe(2024);
  });

  it("sums the year's rollups by utility type in the type's unit", () => {
    // 11 x 83,333,333 + 83,333,337 = 1,000,000,000 Wh; 11 x 1,666,667 + 1,666,663 = 20,000,000 milli-therms.
    expect(yearEnergy(office().series, 2025)).toEqual({ electric: 1_000_000, gas: 20_000 });
    expect(yearEnergy(null, 2025)).toEqual({});
  });

  it('stores location-based kg and the Local Law 97 penalty, and notifies the penalty once it appears', () => {
    // 402,145.92 + 106,229.60 = 508,375.52 kg -> 508,376; LL97 395.182 t against 338.4 t: 56.782 t, $15,217.58.
    const first = propertyExposure('owner', office(), MARCH_2026);
    expect(first.fields).toEqual({
      emissions_year: 2025,
      emissions_kg: 508_376,
      penalty_period: '2024-2029',
      penalty_cents: 1_521_758,
      penalty_alerts: 1,
    });
    expect(first.notification).toEqual({
      userId: 'owner',
      type: 'building_performance_penalty',
      propertyId: 'p1',
      message:
        'Midtown office: projected New York City Local Law 97 of 2019 (Administrative Code § 28-320) penalty of $15,217.58 for ' +
        '2025 (2024-2029 period): 395.182 t CO2e against a limit of 338.4 t, 56.782 t over',
      dedupeKey: 'building-performance-penalty:p1:2024-2029:1',
    });
  });

  it('raises nothing while the stored penalty of the period is above zero; again when it was cleared', () => {
    const stored = { stored_penalty_period: '2024-2029', stored_penalty_cents: '1521758', stored_penalty_alerts: 1 };
    const again = propertyExposure('owner', office(stored), MARCH_2026);
    expect(again.notification).toBeNull();
    expect(again.fields.penalty_alerts).toBe(1);
    // Cleared (0 cents stored, or no penalty computed: null), then back: the second alert, a new key.
    for (const cents of ['0', null]) {
      const back = propertyExposure('owner', office({ ...stored, stored_penalty_cents: cents }), MARCH_2026);
      expect(back.notification?.dedupeKey).toBe('building-performance-penalty:p1:2024-2029:2');
      expect(back.fields.penalty_alerts).toBe(2);
    }
  });

  it("takes the limit from the property's Portfolio Manager uses, as the building-performance answer does", () => {
    // 2025, Office only: 0.00758 x 40,000 = 303.2 t (1 RCNY § 103-14(c)(3)); 91.982 t over x $268 = $24,651.18.
    const byType = propertyExposure('owner', office({ occupancy: null, property_uses: [['Office', 40000]] }), MARCH_2026);
    expect(byType.fields).toMatchObject({ penalty_period: '2024-2029', penalty_cents: 2_465_118 });
    expect(byType.notification?.message).toContain('395.182 t CO2e against a limit of 303.2 t, 91.982 t over');
    // With group B recorded too, 2025 is the owner's choice: the more lenient 338.4 t ($15,217.58).
    const both = propertyExposure('owner', office({ property_uses: [['Office', 40000]] }), MARCH_2026);
    expect(both.fields.penalty_cents).toBe(1_521_758);
    // A use without a confirmed limit in 2025: the owner may report by occupancy groups, so group B's $15,217.58 is stored
    // (this replaced "no penalty stored": LL97 2024-2025, the owner's option, emissions README); without groups, none.
    const mixed = propertyExposure('owner', office({ property_uses: [['Mixed Use Property', 40000]] }), MARCH_2026);
    expect(mixed.fields).toMatchObject({ penalty_period: '2024-2029', penalty_cents: 1_521_758 });
    const mixedOnly = propertyExposure('owner', office({ occupancy: [], property_uses: [['Mixed Use Property', 40000]] }), MARCH_2026);
    expect(mixedOnly.fields).toMatchObject({ penalty_period: null, penalty_cents: null });
  });

  it('no penalty under the limit, without occupancy, or outside New York City: emissions only', () => {
    const stored = { stored_penalty_period: '2024-2029', stored_penalty_cents: '1521758', stored_penalty_alerts: 1 };
    const under = propertyExposure('owner', office({ ...stored, occupancy: [['B-ambulatory-health', 40000]] }), MARCH_2026);
    // 0.02381 x 40,000 = 952.4 t: no excess, 0 cents; the alerts count stays.
    expect(under.fields).toMatchObject({ penalty_period: '2024-2029', penalty_cents: 0, penalty_alerts: 1 });
    expect(under.notification).toBeNull();
    expect(propertyExposure('owner', office({ occupancy: null }), MARCH_2026).fields).toMatchObject({
      emissions_kg: 508_376,
      penalty_period: null,
      penalty_cents: null,
    });
    // Gladstone, MI (eGRID MROE, 1,488.688 lb/MWh): 1,000 MWh x 1,488.688 x 0.45359237 = 675,257.52 kg + 106,229.60 kg of gas = 781,487.12.
    const mi = propertyExposure('owner', office({ zip_code: '49837', state: 'MI', city: 'Gladstone' }), MARCH_2026);
    expect(mi.fields).toMatchObject({ emissions_kg: 781_487, penalty_period: null, penalty_cents: null });
    expect(mi.notification).toBeNull();
  });
});
