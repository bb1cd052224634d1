import { excessAndPenalty, ll97Emissions, ll97Emissions2024To2029, PENALTY_CENTS_PER_TON } from './ll97.calc';
import { COEFFICIENTS_2030_2034 } from './ll97-espm';
import { annualExposure } from './exposure';
import { buildingPerformance, jurisdictionOf, ll97Periods } from './building-performance';

describe("Local Law 97's arithmetic, worked by hand for an office", () => {
  // A New York office's 2025: 1,000,000 kWh and 20,000 therms (2,000,000 kBtu) of natural gas.
  const office = { electric: 1_000_000, gas: 20_000 };

  it("computes emissions with the law's 2024-2029 coefficients (§ 28-320.3.1.1)", () => {
    const e = ll97Emissions2024To2029(office);
    // 1,000,000 kWh x 0.000288962 = 288.962 t; 2,000,000 kBtu x 0.00005311 = 106.22 t; total 395.182 t.
    expect(e.lines.map((l) => [l.utility_type, l.energy, l.energy_unit, l.tco2e])).toEqual([
      ['electric', 1_000_000, 'kWh', expect.closeTo(288.962, 9)],
      ['gas', 2_000_000, 'kBtu', expect.closeTo(106.22, 9)],
    ]);
    expect(e.tco2e).toBeCloseTo(395.182, 9);
    expect(e.notCovered).toEqual([]);
  });

  it('counts district steam in kBtu at 0.00004493 and names an other meter as not covered', () => {
    // 1,000,000 kBtu of steam: 44.93 t.
    const e = ll97Emissions2024To2029({ steam: 1_000_000, other: 5, water: 100 });
    expect(e.tco2e).toBeCloseTo(44.93, 9);
    expect(e.notCovered).toEqual(['other']);
  });

  it('counts #2 and #4 fuel oil in kBtu at 0.00007421 and 0.00007529, and No. 5/6 as not covered (items 3 and 4)', () => {
    // 1,000 gallons of No. 2 = 138,000 kBtu x 0.00007421 = 10.24098 t; 1,000 gallons of No. 4 = 146,000 kBtu x 0.00007529 = 10.99234 t.
    const e = ll97Emissions2024To2029({ fuel_oil_2: 138_000, fuel_oil_4: 146_000, fuel_oil_5_6: 150_000 });
    expect(e.lines.map((l) => [l.utility_type, l.energy, l.energy_unit, l.coefficient, l.tco2e])).toEqual([
      ['fuel_oil_2', 138_000, 'kBtu', 0.00007421, expect.closeTo(10.24098, 9)],
      ['fuel_oil_4', 146_000, 'kBtu', 0.00007529, expect.closeTo(10.99234, 9)],
    ]);
    expect(e.tco2e).toBeCloseTo(21.23332, 9);
    expect(e.notCovered).toEqual(['fuel_oil_5_6']);
  });

  it('charges $268 a ton over the limit, to the cent (§ 28-320.6)', () => {
    expect(PENALTY_CENTS_PER_TON).toBe(26800);
    // Against a limit of 300 t: 95.182 t over; 95.182 x $268 = $25,508.776 -> $25,508.78.
    expect(excessAndPenalty(395.182, 300)).toEqual({ excessTons: 95.182, penaltyCents: 2_550_878 });
    // Under the limit: nothing.
    expect(excessAndPenalty(395.182, 400)).toEqual({ excessTons: 0, penaltyCents: 0 });
    // Half a cent rounds up: 0.001 t over = 26.8 cents -> 27.
    expect(excessAndPenalty(10.001, 10)).toEqual({ excessTons: 0.001, penaltyCents: 27 });
  });

  it("takes the limit from the office's occupancy group B: 0.00846 tCO2e/sf x 40,000 sf = 338.4 t, and the penalty over it", () => {
    const [first, second] = ll97Periods(2025, office, 40_000, [{ group: 'B', sqft: 40_000 }]);
    // 395.182 - 338.4 = 56.782 t over; 56.782 x $268 = $15,217.576 -> $15,217.58.
    expect(first).toMatchObject({
      period: '2024-2029',
      status: 'computed',
      emissions_tco2e: 395.182,
      limit_tco2e: 338.4,
      limit_lines: [{ occupancy_group: 'B', gross_floor_area: 40_000, intensity_limit: 0.00846, tco2e: 338.4 }],
      excess_tco2e: 56.782,
      penalty_per_ton: 268,
      projected_penalty: 15217.58,
      gross_floor_area: 40_000,
    });
    // 2030-2034: the law's own B limit, 0.00453 x 40,000 = 181.2 t, against the rule's 2030-2034 coefficients (1 RCNY
    // § 103-14(d)(3)(ii), as quoted): 1,000,000 kWh x 0.000145 = 145 t; 2,000,000 kBtu x 0.00005311 = 106.22 t; 251.22 t.
    // 251.22 - 181.2 = 70.02 t over; 70.02 x $268 = $18,765.36.
    expect(second).toMatchObject({
      period: '2030-2034',
      status: 'computed',
      emissions_tco2e: 251.22,
      emissions_lines: [
        { utility_type: 'electric', energy: 1_000_000, coefficient: 0.000145, coefficient_unit: 'tCO2e/kWh', tco2e: 145 },
        { utility_type: 'gas', energy: 2_000_000, coefficient: 0.00005311, coefficient_unit: 'tCO2e/kBtu', tco2e: 106.22 },
      ],
      limit_tco2e: 181.2,
      limit_lines: [{ occupancy_group: 'B', gross_floor_area: 40_000, intensity_limit: 0.00453, tco2e: 181.2 }],
      excess_tco2e: 70.02,
      projected_penalty: 18765.36,
    });
    // 2025's energy against 2030-2034 is a projection, and the rule's property-type limit (Office) can be lower: both said.
    expect(second!.notes.join(' ')).toContain('same energy then');
    expect(second!.notes.join(' ')).toContain('0.002690852');
    expect(second!.limit_lines[0]!.source).toContain('§ 28-320.3.2');
  });

  it("gives the law's 2030-2034 limits of A, E, I-4 and I-1 (§ 28-320.3.2 items 1 to 4), summed by area", () => {
    // A 0.00420 x 10,000 = 42 t; E 0.00344 x 10,000 = 34.4 t; I-4 0.00344 x 5,000 = 17.2 t; I-1 0.00598 x 5,000 = 29.9 t: 123.5 t.
    const [, mixed] = ll97Periods(2031, office, 30_000, [
      { group: 'A', sqft: 10_000 },
      { group: 'E', sqft: 10_000 },
      { group: 'I-4', sqft: 5_000 },
      { group: 'I-1', sqft: 5_000 },
    ]);
    // 2031 is in the period: 251.22 t against 123.5 t, 127.72 t over, x $268 = $34,228.96 (no projection note).
    expect(mixed).toMatchObject({ status: 'computed', limit_tco2e: 123.5, emissions_tco2e: 251.22, excess_tco2e: 127.72 });
    expect(mixed).toMatchObject({ projected_penalty: 34228.96 });
    expect(mixed!.notes.join(' ')).not.toContain('same energy then');
    expect(mixed!.limit_lines.map((l) => l.tco2e)).toEqual([42, 34.4, 17.2, 29.9]);
  });

  it("gives the law's 2030-2034 limits of items 5 to 10, item 6 as Local Law 147 of 2019 amended it, summed by area", () => {
    // 10,000 sf of each group:
    //   item 5  F                      0.00167 -> 16.7 t
    //   item 6  B ambulatory, H, I-2, I-3  0.01330 (LL147; 0.01193 as first enacted) -> 133 t each, 532 t
    //   item 7  M                      0.00403 -> 40.3 t
    //   item 8  R-1                    0.00526 -> 52.6 t
    //   item 9  R-2                    0.00407 -> 40.7 t
    //   item 10 S and U                0.00110 -> 11 t each, 22 t
    // 16.7 + 532 + 40.3 + 52.6 + 40.7 + 22 = 704.3 t.
    const groups = ['F', 'B-ambulatory-health', 'H', 'I-2', 'I-3', 'M', 'R-1', 'R-2', 'S', 'U'] as const;
    const [, p2030] = ll97Periods(
      2030,
      office,
      100_000,
      groups.map((group) => ({ group, sqft: 10_000 })),
    );
    expect(p2030!.limit_lines.map((l) => [l.occupancy_group, l.intensity_limit, l.tco2e])).toEqual([
      ['F', 0.00167, 16.7],
      ['B-ambulatory-health', 0.0133, 133],
      ['H', 0.0133, 133],
      ['I-2', 0.0133, 133],
      ['I-3', 0.0133, 133],
      ['M', 0.00403, 40.3],
      ['R-1', 0.00526, 52.6],
      ['R-2', 0.00407, 40.7],
      ['S', 0.0011, 11],
      ['U', 0.0011, 11],
    ]);
    // 251.22 t against 704.3 t: under the limit, nothing owed.
    expect(p2030).toMatchObject({
      period: '2030-2034',
      status: 'computed',
      limit_tco2e: 704.3,
      emissions_tco2e: 251.22,
      projected_penalty: 0,
    });
    expect(p2030!.limit_lines[1]!.source).toContain('Local Law 147 of 2019');
    // An apartment building of 40,000 sf of R-2: 0.00407 x 40,000 = 162.8 t from 2030 (270 t in 2024-2029).
    const [first, second] = ll97Periods(2025, office, 40_000, [{ group: 'R-2', sqft: 40_000 }]);
    expect([first!.limit_tco2e, second!.limit_tco2e]).toEqual([270, 162.8]);
    // 251.22 - 162.8 = 88.42 t over; 88.42 x $268 = $23,696.56. The coefficients are the rule's the law leaves them to.
    expect(second).toMatchObject({ excess_tco2e: 88.42, projected_penalty: 23696.56 });
    expect(second!.notes.join(' ')).toContain('§ 28-320.3.2.1');
  });

  it('weights a mixed-use limit by area: 30,000 sf of R-2 and 10,000 sf of M', () => {
    // 0.00675 x 30,000 = 202.5 t; 0.01181 x 10,000 = 118.1 t; limit 320.6 t; 395.182 - 320.6 = 74.582 t -> $19,987.976 -> $19,987.98.
    const [first] = ll97Periods(2025, office, 40_000, [
      { group: 'M', sqft: 10_000 },
      { group: 'R-2', sqft: 30_000 },
    ]);
    expect(first).toMatchObject({ status: 'computed', limit_tco2e: 320.6, excess_tco2e: 74.582, projected_penalty: 19987.98 });
  });

  it('takes the 2024-2029 limits of H, I-1, I-2, I-3 and U from the law (§ 28-320.3.1 items 4, 6 and 10), and the penalty over them', () => {
    // I-1 0.01138 x 5,000 = 56.9 t; I-2 0.02381 x 10,000 = 238.1 t; U 0.00426 x 5,000 = 21.3 t: 316.3 t.
    // 395.182 - 316.3 = 78.882 t over; 78.882 x $268 = $21,140.376 -> $21,140.38.
    const [hospital] = ll97Periods(2025, office, 20_000, [
      { group: 'I-1', sqft: 5_000 },
      { group: 'I-2', sqft: 10_000 },
      { group: 'U', sqft: 5_000 },
    ]);
    expect(hospital).toMatchObject({
      status: 'computed',
      limit_tco2e: 316.3,
      excess_tco2e: 78.882,
      projected_penalty: 21140.38,
    });
    expect(hospital!.limit_lines.map((l) => [l.intensity_limit, l.tco2e])).toEqual([
      [0.01138, 56.9],
      [0.02381, 238.1],
      [0.00426, 21.3],
    ]);
    expect(hospital!.limit_lines[0]!.source).toContain('§ 28-320.3.1');
    // H and I-3 are item 6 with I-2 and B ambulatory health care: 0.02381 x 10,000 = 238.1 t each; 476.2 t, under 395.182.
    const [item6] = ll97Periods(2025, office, 20_000, [
      { group: 'H', sqft: 10_000 },
      { group: 'I-3', sqft: 10_000 },
    ]);
    expect(item6).toMatchObject({ limit_tco2e: 476.2, excess_tco2e: 0, projected_penalty: 0 });
  });

  it('gives no limit without occupancy, unless the request gives one', () => {
    expect(ll97Periods(2025, office, 40_000, [])[0]).toMatchObject({ status: 'no_occupancy', emissions_tco2e: 395.182, limit_tco2e: null });
    // With the limit the owner's report states: 395.182 - 300 = 95.182 t -> $25,508.78.
    expect(ll97Periods(2025, office, 40_000, [], 300)[0]).toMatchObject({
      status: 'computed_with_given_limit',
      limit_tco2e: 300,
      projected_penalty: 25508.78,
    });
    // Under the limit: nothing owed.
    expect(ll97Periods(2025, { electric: 1000 }, 40_000, [{ group: 'B', sqft: 40_000 }])[0]).toMatchObject({
      excess_tco2e: 0,
      projected_penalty: 0,
    });
    expect(ll97Periods(2023, office, 40_000, [])[0]).toMatchObject({ status: 'outside_period', emissions_tco2e: null });
    // From 2026 the note says DOB moves to property-type limits.
    expect(ll97Periods(2026, office, 40_000, [{ group: 'B', sqft: 40_000 }])[0].notes.join(' ')).toContain('calendar year 2026');
  });

  it("computes 2030-2034 emissions by the rule's electricity and gas coefficients, and leaves steam out as not confirmed", () => {
    // 1,000,000 kWh x 0.000145 = 145 t; 2,000,000 kBtu x 0.00005311 = 106.22 t.
    const e = ll97Emissions(office, COEFFICIENTS_2030_2034);
    expect(e.tco2e).toBeCloseTo(251.22, 9);
    expect(e.unconfirmed).toEqual([]);
    // Steam has no confirmed 2030-2034 coefficient: named, and not in the total.
    const withSteam = ll97Emissions({ ...office, steam: 1_000_000 }, COEFFICIENTS_2030_2034);
    expect(withSteam.unconfirmed).toEqual(['steam']);
    expect(withSteam.lines.map((l) => l.utility_type)).toEqual(['electric', 'gas']);
    // So a building with steam gets no 2030-2034 emissions or penalty, only the limit; 2024-2029 counts the steam (44.93 t).
    const [first, second] = ll97Periods(2025, { ...office, steam: 1_000_000 }, 40_000, [{ group: 'B', sqft: 40_000 }]);
    expect(first).toMatchObject({ status: 'computed', emissions_tco2e: 440.112 });
    expect(second).toMatchObject({ status: 'not_confirmed', emissions_tco2e: null, limit_tco2e: 181.2, projected_penalty: null });
    expect(second!.notes.join(' ')).toContain('not confirmed for district steam');
  });

  it('counts #2 fuel oil in 2024-2029 and leaves 2030-2034 not confirmed, naming the fuel', () => {
    // 1,000 gallons of No. 2 = 138,000 kBtu x 0.00007421 = 10.24098 t; the office's 395.182 t + 10.241 = 405.423 t.
    const [first, second] = ll97Periods(2025, { ...office, fuel_oil_2: 138_000 }, 40_000, [{ group: 'B', sqft: 40_000 }]);
    expect(first).toMatchObject({ status: 'computed', emissions_tco2e: 405.423 });
    expect(second).toMatchObject({ status: 'not_confirmed', emissions_tco2e: null, projected_penalty: null });
    expect(second!.notes.join(' ')).toContain('not confirmed for #2 fuel oil');
  });

  it('applies a given limit to 2030-2034 when the year is in it, and computes emissions without occupancy', () => {
    // 2031, the report's limit 200 t: 251.22 - 200 = 51.22 t x $268 = $13,726.96.
    const [outside, p2030] = ll97Periods(2031, office, 40_000, [], 200);
    expect(outside).toMatchObject({ status: 'outside_period', emissions_tco2e: null });
    expect(p2030).toMatchObject({
      status: 'computed_with_given_limit',
      limit_tco2e: 200,
      excess_tco2e: 51.22,
      projected_penalty: 13726.96,
    });
    // A 2025 limit given is 2025's (2024-2029), not 2030-2034's: the 2030 period keeps its own (none without occupancy).
    const [, later] = ll97Periods(2025, office, 40_000, [], 200);
    expect(later).toMatchObject({ status: 'no_occupancy', emissions_tco2e: 251.22, limit_tco2e: null, projected_penalty: null });
  });
});

describe("Local Law 97 by the property's Portfolio Manager uses (1 RCNY § 103-14(c)(3), as quoted), worked by hand", () => {
  const office = { electric: 1_000_000, gas: 20_000 };
  const officeUse = [{ type: 'Office' as const, sqft: 40_000 }];

  it('gives a 40,000 sf Office its 2026 and 2030-2034 limits by property type, and the penalties over them', () => {
    const [first, second] = ll97Periods(2026, office, 40_000, [], null, officeUse);
    // 2026: 0.00758 x 40,000 = 303.2 t; 395.182 - 303.2 = 91.982 t over; x $268 = $24,651.176 -> $24,651.18.
    expect(first).toMatchObject({
      period: '2024-2029',
      status: 'computed',
      emissions_tco2e: 395.182,
      limit_tco2e: 303.2,
      limit_basis: 'property_types',
      limit_lines: [{ occupancy_group: null, property_type: 'Office', gross_floor_area: 40_000, intensity_limit: 0.00758, tco2e: 303.2 }],
      excess_tco2e: 91.982,
      projected_penalty: 24651.18,
    });
    expect(first!.limit_lines[0]!.source).toContain('1 RCNY § 103-14 (NYC Department of Buildings');
    expect(first!.notes.join(' ')).toContain('From calendar year 2026 all owners report with Portfolio Manager property types');
    // 2030-2034: 0.002690852 x 40,000 = 107.63408 -> 107.634 t; 251.22 - 107.634 = 143.586 t; x $268 = $38,481.048 -> $38,481.05.
    expect(second).toMatchObject({
      period: '2030-2034',
      status: 'computed',
      emissions_tco2e: 251.22,
      limit_tco2e: 107.634,
      limit_basis: 'property_types',
      limit_lines: [{ occupancy_group: null, property_type: 'Office', intensity_limit: 0.002690852, tco2e: 107.634 }],
      excess_tco2e: 143.586,
      projected_penalty: 38481.05,
    });
    // Recorded occupancy does not change a 2026 limit: from 2026 every report uses property types.
    expect(ll97Periods(2026, office, 40_000, [{ group: 'B', sqft: 40_000 }], null, officeUse)[0]).toMatchObject({
      limit_tco2e: 303.2,
      limit_basis: 'property_types',
    });
  });

  it("takes 2024-2025's more lenient limit when both are recorded, and says which", () => {
    // 2025, group B 338.4 t against Office 303.2 t: the owner may report with either, so 338.4 t ($15,217.58).
    const [first, second] = ll97Periods(2025, office, 40_000, [{ group: 'B', sqft: 40_000 }], null, officeUse);
    expect(first).toMatchObject({
      status: 'computed',
      limit_tco2e: 338.4,
      limit_basis: 'occupancy_groups',
      limit_lines: [{ occupancy_group: 'B', property_type: null, tco2e: 338.4 }],
      projected_penalty: 15217.58,
    });
    expect(first!.notes).toEqual([
      expect.stringContaining('occupancy groups (occupancy groups 338.4 t by § 28-320.3.1; property types 303.2 t'),
    ]);
    // The 2030-2034 projection is by property type whatever the year: 107.634 t.
    expect(second).toMatchObject({ limit_tco2e: 107.634, limit_basis: 'property_types', projected_penalty: 38481.05 });
    // A 20,000 sf medical office: group B 0.00846 x 20,000 = 169.2 t, Medical Office 0.01074 x 20,000 = 214.8 t: the type's.
    // 395.182 - 214.8 = 180.382 t over; x $268 = $48,342.376 -> $48,342.38.
    const [medical] = ll97Periods(2024, office, 20_000, [{ group: 'B', sqft: 20_000 }], null, [{ type: 'Medical Office', sqft: 20_000 }]);
    expect(medical).toMatchObject({
      limit_tco2e: 214.8,
      limit_basis: 'property_types',
      excess_tco2e: 180.382,
      projected_penalty: 48342.38,
    });
    // Property uses alone in 2025: their limit, and a note that occupancy groups could be chosen.
    const [alone] = ll97Periods(2025, office, 40_000, [], null, officeUse);
    expect(alone).toMatchObject({ limit_tco2e: 303.2, limit_basis: 'property_types', projected_penalty: 24651.18 });
    expect(alone!.notes.join(' ')).toContain('may report with occupancy groups instead');
  });

  it("finds the stored spellings of the rule's types: Other/Specialty Hospital is the rule's Other - Specialty Hospital", () => {
    // 0.02381 x 10,000 = 238.1 t; 2030-2034 0.006321819 x 10,000 = 63.21819 -> 63.218 t.
    const [first, second] = ll97Periods(2026, office, 10_000, [], null, [{ type: 'Other/Specialty Hospital', sqft: 10_000 }]);
    expect(first).toMatchObject({
      limit_tco2e: 238.1,
      limit_lines: [{ property_type: 'Other/Specialty Hospital', intensity_limit: 0.02381 }],
    });
    expect(second).toMatchObject({ limit_tco2e: 63.218 });
  });

  it('gives no limit, naming the use, when a use has no confirmed limit (never the other uses alone)', () => {
    const uses = [
      { type: 'Office' as const, sqft: 30_000 },
      { type: 'Mixed Use Property' as const, sqft: 10_000 },
    ];
    const [first, second] = ll97Periods(2026, office, 40_000, [{ group: 'B', sqft: 40_000 }], null, uses);
    for (const p of [first!, second!]) {
      expect(p).toMatchObject({
        status: 'limit_not_confirmed',
        emissions_tco2e: expect.any(Number),
        limit_tco2e: null,
        limit_basis: 'property_types',
        limit_lines: [],
        excess_tco2e: null,
        projected_penalty: null,
      });
      expect(p.notes.join(' ')).toContain('"Mixed Use Property"');
    }
    // 'Other' and a type the rule's table does not list (Aquarium): not confirmed, and from 2026 no limit at all.
    const unlisted = [
      { type: 'Other' as const, sqft: 20_000 },
      { type: 'Aquarium' as const, sqft: 20_000 },
    ];
    const [other2026] = ll97Periods(2026, office, 40_000, [{ group: 'B', sqft: 40_000 }], null, unlisted);
    expect(other2026).toMatchObject({ status: 'limit_not_confirmed', limit_tco2e: null, projected_penalty: null });
    expect(other2026!.notes.join(' ')).toContain('"Other", "Aquarium"');
    // In 2025 the owner may still report by occupancy groups (this replaced "not confirmed in 2025 too"): group B's
    // 338.4 t, 56.782 t over, $15,217.58, and the notes say why.
    const [other2025] = ll97Periods(2025, office, 40_000, [{ group: 'B', sqft: 40_000 }], null, unlisted);
    expect(other2025).toMatchObject({
      status: 'computed',
      limit_basis: 'occupancy_groups',
      limit_tco2e: 338.4,
      projected_penalty: 15217.58,
    });
    expect(other2025!.notes.join(' ')).toContain('"Other", "Aquarium"');
    expect(other2025!.notes.join(' ')).toContain('may report by occupancy groups');
    // A limit given in the request still applies.
    expect(ll97Periods(2026, office, 40_000, [], 300, uses)[0]).toMatchObject({
      status: 'computed_with_given_limit',
      limit_basis: 'given',
      excess_tco2e: 95.182,
    });
  });

  it('keeps the property-type limit of 2030-2034 beside the steam it cannot count', () => {
    const [, second] = ll97Periods(2026, { ...office, steam: 1_000_000 }, 40_000, [], null, officeUse);
    expect(second).toMatchObject({ status: 'not_confirmed', emissions_tco2e: null, limit_tco2e: 107.634, limit_basis: 'property_types' });
  });
});

describe('jurisdictions', () => {
  it('finds New York City by its five counties, Boston by city and Denver by county', () => {
    expect(jurisdictionOf({ state: 'NY', city: 'Brooklyn' }, 'Kings')).toBe('new_york_city');
    expect(jurisdictionOf({ state: 'NY', city: 'Floral Park' }, 'Nassau')).toBeNull();
    expect(jurisdictionOf({ state: 'MA', city: 'Boston' }, 'Suffolk')).toBe('boston');
    expect(jurisdictionOf({ state: 'MA', city: 'Chelsea' }, 'Suffolk')).toBeNull();
    expect(jurisdictionOf({ state: 'CO', city: 'Denver' }, 'Denver')).toBe('denver');
    expect(jurisdictionOf({ state: 'MI', city: 'Gladstone' }, 'Delta')).toBeNull();
  });

  it('says plainly when no standard applies, and when one applies whose numbers are not confirmed', () => {
    const none = buildingPerformance(null, 2025, {}, 1000, 'Gladstone, MI 49837');
    expect(none).toMatchObject({ applies: false, standards: [], message: expect.stringContaining('No building-performance standard') });
    const boston = buildingPerformance('boston', 2025, {}, 1000, 'Boston, MA 02108');
    // BERDO without property uses: no standard to blend (test/emissions/berdo.test.ts works the numbers).
    expect(boston).toMatchObject({
      applies: true,
      standards: [{ status: 'partly_confirmed', periods: [], berdo: { status: 'no_property_uses', limit_tco2e: null } }],
    });
    const denver = buildingPerformance('denver', 2025, {}, 1000, 'Denver, CO 80202');
    // Energize Denver without property uses: no target (energize-denver.calc.test.ts works the numbers).
    expect(denver.standards[0]).toMatchObject({ status: 'partly_confirmed', periods: [], energize_denver: { status: 'no_property_uses' } });
  });
});

describe('the exposure the analytics store: only the period the year falls in', () => {
  const office = {
    name: 'Midtown office',
    zipCode: '10001',
    state: 'NY',
    city: 'New York',
    sqft: 40_000,
    areas: [{ group: 'B' as const, sqft: 40_000 }],
    uses: [],
  };
  const energy = { electric: 1_000_000, gas: 20_000 };

  it("follows the limits of the property's uses, as the building-performance answer does", () => {
    const uses = [{ type: 'Office' as const, sqft: 40_000 }];
    // 2026: Office 303.2 t, 91.982 t over, $24,651.18; 2031: 107.634 t, 143.586 t over, $38,481.05.
    expect(annualExposure({ ...office, uses }, 2026, energy).penalty).toMatchObject({
      period: '2024-2029',
      limitTons: 303.2,
      excessTons: 91.982,
      penaltyCents: 2_465_118,
    });
    expect(annualExposure({ ...office, uses }, 2031, energy).penalty).toMatchObject({
      period: '2030-2034',
      limitTons: 107.634,
      excessTons: 143.586,
      penaltyCents: 3_848_105,
    });
    // A use without a confirmed limit: no penalty stored, rather than one against the other uses alone.
    expect(annualExposure({ ...office, uses: [...uses, { type: 'Other' as const, sqft: 1_000 }] }, 2026, energy).penalty).toBeNull();
  });

  it("reports 2030-2034's penalty for a year in it, and never as a 2023 or 2025 year's", () => {
    // 2031: 251.22 t against group B's 181.2 t, 70.02 t over, $18,765.36.
    expect(annualExposure(office, 2031, energy).penalty).toEqual({
      standard: 'New York City Local Law 97 of 2019 (Administrative Code § 28-320)',
      period: '2030-2034',
      emissionsTons: 251.22,
      limitTons: 181.2,
      excessTons: 70.02,
      penaltyCents: 1_876_536,
    });
    // 2025 is 2024-2029's ($15,217.58); 2023 is in no period, so the 2030-2034 projection is not its exposure.
    expect(annualExposure(office, 2025, energy).penalty).toMatchObject({ period: '2024-2029', penaltyCents: 1_521_758 });
    expect(annualExposure(office, 2023, energy).penalty).toBeNull();
  });
});
