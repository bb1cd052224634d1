import { excessAndPenalty, ll97Emissions2024To2029, PENALTY_CENTS_PER_TON } from './ll97.calc';
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

  it('charges $268 a ton over the limit, to the cent (§ 28-320.6)', () => {
    expect(PENALTY_CENTS_PER_TON).toBe(26800);
    // Against a limit of 300 t: 95.182 t over; 95.182 x $268 = $25,508.776 -> $25,508.78.
    expect(excessAndPenalty(395.182, 300)).toEqual({ excessTons: 95.182, penaltyCents: 2_550_878 });
    // Under the limit: nothing.
    expect(excessAndPenalty(395.182, 400)).toEqual({ excessTons: 0, penaltyCents: 0 });
    // Half a cent rounds up: 0.001 t over = 26.8 cents -> 27.
    expect(excessAndPenalty(10.001, 10)).toEqual({ excessTons: 0.001, penaltyCents: 27 });
  });

  it('answers 2025 with the 2024-2029 period computed against a given limit, and 2030-2034 not confirmed', () => {
    const [first, second] = ll97Periods(2025, office, 40_000, 300);
    expect(first).toMatchObject({
      period: '2024-2029', status: 'computed_with_given_limit', emissions_tco2e: 395.182, limit_tco2e: 300,
      excess_tco2e: 95.182, penalty_per_ton: 268, projected_penalty: 25508.78, gross_floor_area: 40_000,
    });
    expect(second).toMatchObject({ period: '2030-2034', status: 'not_confirmed', emissions_tco2e: null, projected_penalty: null });
    // Without a given limit: emissions only.
    expect(ll97Periods(2025, office, 40_000)[0]).toMatchObject({ status: 'limit_not_confirmed', limit_tco2e: null, projected_penalty: null });
    expect(ll97Periods(2023, office, 40_000)[0]).toMatchObject({ status: 'outside_period', emissions_tco2e: null });
  });
});

describe('jurisdictions', () => {
  it("finds New York City by its five counties, Boston by city and Denver by county", () => {
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
    expect(boston).toMatchObject({ applies: true, standards: [{ status: 'not_confirmed', periods: [], reason: expect.stringContaining('could not be confirmed') }] });
  });
});
