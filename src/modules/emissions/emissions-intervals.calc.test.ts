import { yearInventory, type InventoryBill, type InventoryMeter, type IntervalMonth } from './emissions.calc';
import { monthsOfYear } from './interval-months';
import { ELECTRIC_AND_GAS, NYCW } from './emissions.calc.fixtures';

describe('months covered by interval readings replace the bills calendarised (README rule 2), worked by hand', () => {
  const meters: InventoryMeter[] = [...ELECTRIC_AND_GAS, { id: 'e2', name: 'Sub-meter', utilityType: 'electric' }];
  // A quarter of 90 days (31 + 28 + 31), 9,000 kWh: 100 kWh a day, so January 3,100, February 2,800, March 3,100.
  const bills: InventoryBill[] = [
    { meterId: 'e', periodStart: '2025-01-01', periodEnd: '2025-03-31', usageMilli: 9_000_000 },
    { meterId: 'g', periodStart: '2025-01-01', periodEnd: '2025-01-31', usageMilli: 1_000_000 },
  ];
  const readings: IntervalMonth[] = [
    // January's readings, 2,500 kWh: they replace the bill's 3,100.
    { meterId: 'e', month: '2025-01', wh: 2_500_000 },
    // Another year's month, and a gas meter's: ignored.
    { meterId: 'e', month: '2024-12', wh: 7_000_000 },
    { meterId: 'g', month: '2025-01', wh: 5_000_000 },
    // A meter without bills whose readings cover March: 1,000 kWh counted.
    { meterId: 'e2', month: '2025-03', wh: 1_000_000 },
  ];
  const inv = yearInventory(2025, meters, bills, NYCW, readings);

  it('takes January from the readings and February and March from the bill', () => {
    const e = inv.meters.find((m) => m.meterId === 'e')!;
    // January 2.5 MWh x 0.40214592339 = 1.00536481 t; February 2.8 MWh = 1.12600859 t; March 3.1 MWh = 1.24665236 t.
    expect(e.months).toEqual([
      { month: '2025-01', usage: 2500, tco2e: 1.005, basis: 'intervals' },
      { month: '2025-02', usage: 2800, tco2e: 1.126, basis: 'bills' },
      { month: '2025-03', usage: 3100, tco2e: 1.247, basis: 'bills' },
    ]);
    // 8,400 kWh (not 9,000 + 2,500: January is counted once) x 0.40214592339 = 3.37802576 t.
    expect(e).toMatchObject({ usage: 8400, tco2e: 3.378, monthsFromIntervals: 1 });
  });

  it('ignores readings of other years and of other utility types; counts a meter with readings and no bills', () => {
    expect(inv.meters.find((m) => m.meterId === 'g')).toMatchObject({
      usage: 1000,
      monthsFromIntervals: 0,
      months: [{ month: '2025-01', usage: 1000, tco2e: 5.311, basis: 'bills' }],
    });
    // 1 MWh = 0.40214592 t.
    expect(inv.meters.find((m) => m.meterId === 'e2')).toMatchObject({
      usage: 1000,
      tco2e: 0.402,
      monthsFromIntervals: 1,
      billsWithoutUsage: 0,
      months: [{ month: '2025-03', usage: 1000, tco2e: 0.402, basis: 'intervals' }],
    });
    // January: 1.00536481 + gas 5.31148 = 6.31684481 t; March 1.24665236 + 0.40214592 = 1.64879828 t.
    expect(inv.months.slice(0, 3).map((m) => m.tco2e)).toEqual([6.317, 1.126, 1.649]);
    // 3.37802576 + 5.31148 + 0.40214592 = 9.09165168 t.
    expect(inv.tco2e).toBe(9.092);
  });

  it('without readings, the bills alone (as before)', () => {
    const bare = yearInventory(2025, meters, bills, NYCW);
    expect(bare.meters.find((m) => m.meterId === 'e')).toMatchObject({ usage: 9000, monthsFromIntervals: 0 });
    expect(bare.meters.map((m) => m.meterId)).toEqual(['e', 'g']);
  });

  it('reads each month from its first day to its last, February 29 in a leap year', () => {
    expect(monthsOfYear(2024)[1]).toEqual({ month: '2024-02', start: '2024-02-01', end: '2024-02-29' });
    expect(monthsOfYear(2025).map((m) => m.end.slice(8))).toEqual(['31', '28', '31', '30', '31', '30', '31', '31', '30', '31', '30', '31']);
  });
});
