import {
  districtSteamKgCo2ePerMmbtu,
  districtSteamTons,
  electricityTons,
  fuelOilKgCo2ePerMmbtu,
  fuelOilTons,
  KG_PER_LB,
  naturalGasKgCo2ePerMmbtu,
  naturalGasTons,
  tonsPerMwh,
} from './factors';
import { tonsOf, yearInventory, type InventoryBill, type InventoryMeter } from './emissions.calc';
import { ELECTRIC_AND_GAS, NYCW } from './emissions.calc.fixtures';

describe('factors, worked by hand', () => {
  it('converts an eGRID output rate in lb/MWh to metric tons, with no grid loss', () => {
    expect(KG_PER_LB).toBe(0.45359237);
    // 886.58 lb/MWh x 0.45359237 kg/lb = 402.14592339 kg/MWh = 0.40214592 t/MWh.
    expect(tonsPerMwh(886.58)).toBeCloseTo(0.40214592339, 10);
    // 10,000 kWh = 10 MWh: 10 x 0.40214592339 = 4.0214592339 t (with the 5.1 % gross loss it would be 4.2265: not applied).
    expect(electricityTons(10_000, 886.58)).toBeCloseTo(4.0214592339, 9);
  });

  it('natural gas: 53.06 kg CO2 + 1.0 g CH4 x 25 + 0.10 g N2O x 298 per mmBtu', () => {
    // 53.06 + 0.025 + 0.0298 = 53.1148 kg CO2e/mmBtu.
    expect(naturalGasKgCo2ePerMmbtu()).toBeCloseTo(53.1148, 10);
    // 1,000 therms = 100 mmBtu: 5,311.48 kg = 5.31148 t.
    expect(naturalGasTons(1000)).toBeCloseTo(5.31148, 10);
  });

  it('district steam: 66.33 kg CO2 + 1.25 g CH4 x 25 + 0.125 g N2O x 298 per mmBtu (EPA Hub Table 7)', () => {
    // 66.33 + 0.03125 + 0.03725 = 66.3985 kg CO2e/mmBtu.
    expect(districtSteamKgCo2ePerMmbtu()).toBeCloseTo(66.3985, 10);
    // 100 klbs of steam = 119,400 kBtu (PM: 1 lb = 1.194 kBtu) = 119.4 mmBtu x 66.3985 = 7,927.9809 kg = 7.9279809 t.
    expect(districtSteamTons(119_400)).toBeCloseTo(7.9279809, 9);
    expect(tonsOf('steam', 119_400, NYCW)).toEqual({ tco2e: districtSteamTons(119_400) });
  });

  it('fuel oil No. 2 and No. 4: the Hub Table 1 CO2 with 3.0 g CH4 x 25 and 0.60 g N2O x 298 per mmBtu', () => {
    // No. 2: 73.96 + 0.075 + 0.1788 = 74.2138 kg CO2e/mmBtu; No. 4: 75.04 + 0.2538 = 75.2938.
    expect(fuelOilKgCo2ePerMmbtu('fuel_oil_2')).toBeCloseTo(74.2138, 10);
    expect(fuelOilKgCo2ePerMmbtu('fuel_oil_4')).toBeCloseTo(75.2938, 10);
    // 1,000 gallons of No. 2 = 138,000 kBtu (PM: 138 kBtu a gallon) = 138 mmBtu x 74.2138 = 10,241.5044 kg = 10.242 t.
    expect(fuelOilTons('fuel_oil_2', 138_000)).toBeCloseTo(10.2415044, 9);
    expect(tonsOf('fuel_oil_2', 138_000, NYCW)).toEqual({ tco2e: fuelOilTons('fuel_oil_2', 138_000) });
    // 1,000 gallons of No. 4 = 146,000 kBtu = 146 mmBtu x 75.2938 = 10,992.8948 kg.
    expect(tonsOf('fuel_oil_4', 146_000, NYCW)).toEqual({ tco2e: expect.closeTo(10.9928948, 9) });
    // No. 5 and No. 6 together: the Hub lists them apart (72.93 and 75.10 kg CO2), so no factor.
    expect(tonsOf('fuel_oil_5_6', 150_000, NYCW)).toEqual({
      reason: expect.stringContaining('No. 5 (72.93 kg CO2/mmBtu) and No. 6 (75.10)'),
    });
  });

  it('leaves other fuels and water out, saying why, and electricity out without a subregion', () => {
    // Replaced rule: district steam was left out (no confirmed factor) until the EPA Hub Table 7 factor above.
    expect(tonsOf('other', 100, NYCW)).toEqual({ reason: expect.stringContaining('fuel') });
    expect(tonsOf('water', 100, NYCW)).toEqual({ reason: expect.stringContaining('not energy') });
    expect(tonsOf('electric', 100, { subregion: null, reason: 'ZIP 00000 is not in the Power Profiler map' })).toEqual({
      reason: 'ZIP 00000 is not in the Power Profiler map',
    });
  });
});

describe('a year of a New York property, calendarised and worked by hand', () => {
  const meters: InventoryMeter[] = [
    ...ELECTRIC_AND_GAS,
    { id: 'w', name: 'Water', utilityType: 'water' },
    { id: 'idle', name: 'Idle gas meter', utilityType: 'gas' },
  ];
  const bills: InventoryBill[] = [
    // 30 days: Dec 17-31 (15) and Jan 1-15 (15): 1,500 kWh fall in January 2025, 1,500 in 2024 (outside the year).
    { meterId: 'e', periodStart: '2024-12-17', periodEnd: '2025-01-15', usageMilli: 3_000_000 },
    // 30 days: Jan 16-31 (16) and Feb 1-14 (14): 1,600 kWh in January, 1,400 in February.
    { meterId: 'e', periodStart: '2025-01-16', periodEnd: '2025-02-14', usageMilli: 3_000_000 },
    { meterId: 'g', periodStart: '2025-01-01', periodEnd: '2025-01-31', usageMilli: 1_000_000 },
    { meterId: 'w', periodStart: '2025-01-01', periodEnd: '2025-01-31', usageMilli: 5_000_000 },
    { meterId: 'g', periodStart: '2026-01-01', periodEnd: '2026-01-31', usageMilli: 9_000_000 },
  ];
  const inv = yearInventory(2025, meters, bills, NYCW);

  it('sums each month over the counted meters', () => {
    // January: 3,100 kWh x 0.40214592339 t/MWh / 1000 = 1.24665236 t, + gas 5.31148 t = 6.55813236 t.
    // February: 1,400 kWh = 0.56300429 t. Year: 7.12113665 t.
    expect(inv.months).toHaveLength(12);
    expect(inv.months[0]).toEqual({ month: '2025-01', tco2e: 6.558 });
    expect(inv.months[1]).toEqual({ month: '2025-02', tco2e: 0.563 });
    expect(inv.months.slice(2).every((m) => m.tco2e === 0)).toBe(true);
    expect(inv.tco2e).toBe(7.121);
  });

  it('gives each meter its usage and tons, and the uncounted ones with the reason', () => {
    const [e, g, w] = inv.meters;
    expect(e).toMatchObject({ meterId: 'e', unit: 'kWh', usage: 4500, tco2e: 1.81, counted: true, reason: null });
    expect(e.months).toEqual([
      { month: '2025-01', usage: 3100, tco2e: 1.247, basis: 'bills' },
      { month: '2025-02', usage: 1400, tco2e: 0.563, basis: 'bills' },
    ]);
    expect(g).toMatchObject({ meterId: 'g', unit: 'therms', usage: 1000, tco2e: 5.311, counted: true });
    expect(w).toMatchObject({
      meterId: 'w',
      counted: false,
      tco2e: null,
      usage: 5_000_000 / 1000,
      reason: expect.stringContaining('not energy'),
    });
    expect(w.months).toEqual([{ month: '2025-01', usage: 5000, tco2e: null, basis: 'bills' }]);
    // A meter with no bill in the year is left out.
    expect(inv.meters.map((m) => m.meterId)).toEqual(['e', 'g', 'w']);
  });

  it('counts bills without usage and adds nothing for them', () => {
    const withBlank = yearInventory(
      2025,
      meters.slice(0, 1),
      [{ meterId: 'e', periodStart: '2025-03-01', periodEnd: '2025-03-31', usageMilli: null }],
      NYCW,
    );
    expect(withBlank.meters[0]).toMatchObject({ billsWithoutUsage: 1, usage: 0, tco2e: 0 });
    expect(withBlank.tco2e).toBe(0);
  });
});
