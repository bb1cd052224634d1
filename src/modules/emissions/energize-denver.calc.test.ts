import { blendedFinalTarget, DENVER_FINAL_TARGETS, energizeDenver, siteEnergy } from './energize-denver.calc';
import { PROPERTY_TYPES } from './property-types';

describe("Energize Denver's arithmetic, worked by hand", () => {
  // A Denver building's 2025: 600,000 kWh and 20,000 therms.
  const year = { electric: 600_000, gas: 20_000 };

  it("converts a year's energy to site kBtu with Portfolio Manager's factors, without weather normalization", () => {
    // 600,000 kWh x 3.412 = 2,047,200 kBtu; 20,000 therms x 100 = 2,000,000 kBtu; 4,047,200 kBtu.
    const s = siteEnergy(year);
    expect(s.kbtu).toBe(4_047_200);
    expect(s.lines.map((l) => [l.utility_type, l.energy, l.energy_unit, l.kbtu_per_unit, l.kbtu])).toEqual([
      ['electric', 600_000, 'kWh', 3.412, 2_047_200],
      ['gas', 20_000, 'therms', 100, 2_000_000],
    ]);
    // Steam and other meters are already kBtu; water is not energy.
    expect(siteEnergy({ steam: 119_400, other: 600, water: 1_000_000 }).kbtu).toBe(120_000);
  });

  it("takes the city's final targets per Portfolio Manager type, spelled as Portfolio Manager spells them", () => {
    expect(DENVER_FINAL_TARGETS.Office).toBe(48.3);
    expect(DENVER_FINAL_TARGETS['Multifamily Housing']).toBe(44.2);
    expect(DENVER_FINAL_TARGETS.Hotel).toBe(61.1);
    expect(DENVER_FINAL_TARGETS['K-12 School']).toBe(48.0);
    expect(DENVER_FINAL_TARGETS['Medical Office']).toBe(69.0);
    for (const type of Object.keys(DENVER_FINAL_TARGETS)) expect(PROPERTY_TYPES).toContain(type);
    // Read neither in the table's legible rows: no target.
    expect(DENVER_FINAL_TARGETS['Retail Store']).toBeUndefined();
  });

  it('blends a mixed-use target by gross floor area', () => {
    // 40,000 sf Office at 48.3 + 10,000 sf Multifamily Housing at 44.2: 1,932,000 + 442,000 = 2,374,000 kBtu;
    // over 50,000 sf, 47.48 kBtu/sf.
    const t = blendedFinalTarget([
      { type: 'Office', sqft: 40_000 },
      { type: 'Multifamily Housing', sqft: 10_000 },
    ]);
    expect(t).toMatchObject({ grossFloorArea: 50_000, targetKbtu: 2_374_000, targetEui: 47.48, missing: [] });
    expect(t.lines.map((l) => l.target_kbtu)).toEqual([1_932_000, 442_000]);
  });

  it("gives a 50,000 sf office's site EUI and the kBtu over its final target", () => {
    // EUI 4,047,200 / 50,000 = 80.944 -> 80.9; target 48.3 x 50,000 = 2,415,000 kBtu; 1,632,200 kBtu over.
    const a = energizeDenver(2025, year, [{ type: 'Office', sqft: 50_000 }]);
    expect(a).toMatchObject({
      status: 'computed',
      site_energy_kbtu: 4_047_200,
      gross_floor_area: 50_000,
      site_eui: 80.9,
      weather_normalized: false,
      final_target_year: 2032,
      final_target_eui: 48.3,
      kbtu_over_final_target: 1_632_200,
      projected_penalty: null,
    });
    expect(a.notes.join(' ')).toContain('not weather normalized');
    expect(a.notes.join(' ')).toContain('$0.70 per kBtu');
  });

  it('gives nothing over a target the building meets', () => {
    // 100,000 kWh = 341,200 kBtu over 50,000 sf: 6.8 kBtu/sf, under 48.3.
    expect(energizeDenver(2025, { electric: 100_000 }, [{ type: 'Office', sqft: 50_000 }])).toMatchObject({
      site_eui: 6.8,
      kbtu_over_final_target: 0,
    });
  });

  it('says what is missing instead of guessing: no uses, a baseline-based type, a type not in the table read', () => {
    expect(energizeDenver(2025, year, [])).toMatchObject({
      status: 'no_property_uses',
      gross_floor_area: null,
      site_eui: null,
      final_target_eui: null,
      kbtu_over_final_target: null,
    });
    const museum = energizeDenver(2025, year, [
      { type: 'Office', sqft: 30_000 },
      { type: 'Museum', sqft: 20_000 },
    ]);
    expect(museum).toMatchObject({ status: 'target_not_confirmed', site_eui: 80.9, final_target_eui: null, kbtu_over_final_target: null });
    expect(museum.target_lines[1]).toMatchObject({ property_type: 'Museum', target_eui: null, note: expect.stringContaining('30 %') });
    const retail = energizeDenver(2025, year, [{ type: 'Retail Store', sqft: 50_000 }]);
    expect(retail.status).toBe('target_not_confirmed');
    expect(retail.notes[0]).toContain('Retail Store');
  });
});
