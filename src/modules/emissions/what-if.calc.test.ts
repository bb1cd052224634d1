import { yearInventory } from './emissions.calc';
import { excessAndPenalty, ll97Emissions2024To2029 } from './ll97.calc';
import { applyChanges, cutMilli, electrifiedWh, kwhPerTherm, scaledCents, shareLoad, type WhatIfBill } from './what-if.calc';

const QUARTERS = [
  ['2025-01-01', '2025-03-31'],
  ['2025-04-01', '2025-06-30'],
  ['2025-07-01', '2025-09-30'],
  ['2025-10-01', '2025-12-31'],
] as const;

/** A year of quarterly bills: 250,000 kWh and 5,000 therms a quarter (the README's New York office). */
const office = (): WhatIfBill[] =>
  QUARTERS.flatMap(([periodStart, periodEnd], i) => [
    { id: `e${i}`, meterId: 'elec', utilityType: 'electric' as const, periodStart, periodEnd, usageMilli: 250_000_000 },
    { id: `g${i}`, meterId: 'gas', utilityType: 'gas' as const, periodStart, periodEnd, usageMilli: 5_000_000 },
  ]);

const electrify = (gasEfficiency: number, electricEfficiency: number) =>
  ({ kind: 'electrify', meterId: 'gas', toMeterId: 'elec', gasEfficiency, electricEfficiency }) as const;

describe('what-if arithmetic (README "What-if")', () => {
  it('converts therms to kWh for the same heat: 100 kBtu / 3.412 kBtu per kWh x gas / electric efficiency', () => {
    // 100 / 3.412 = 29.308324 kWh a therm; an 80 % boiler replaced by a heat pump of COP 3.0: x 0.8 / 3 = 7.815553.
    expect(kwhPerTherm(0.8, 3)).toBeCloseTo(7.815553, 6);
    // 1,000 therms: 100,000 kBtu x 0.8 / (3.412 x 3) = 80,000,000,000 Wh / 10,236 = 7,815,552.95 -> 7,815,553 Wh.
    expect(electrifiedWh(1_000_000, 0.8, 3)).toBe(7_815_553);
    // An 85.3 % boiler and COP 2.5: 85.3 / 8.53 = exactly 10 kWh a therm.
    expect(electrifiedWh(5_000_000, 0.853, 2.5)).toBe(50_000_000);
    // Resistance heat (1.0) replacing a 100 % efficient appliance: the energy itself, 29.308 kWh a therm.
    expect(electrifiedWh(1_000, 1, 1)).toBe(29_308);
    // Fuel oil reads in kBtu (kbtuPerUnit 1): 1,000 gallons of No. 2 = 138,000 kBtu; at 85.3 % and COP 2.5,
    // 138,000 / 3.412 x 0.853 / 2.5 = 138,000 x 0.1 = 13,800 kWh.
    expect(electrifiedWh(138_000_000, 0.853, 2.5, 1)).toBe(13_800_000);
  });

  it('cuts usage by a percent to the unit, half away from zero', () => {
    expect(cutMilli(5_000_000, 20)).toBe(4_000_000);
    expect(cutMilli(1_000_000, 12.34)).toBe(876_600);
    expect(cutMilli(333, 50)).toBe(167); // 166.5
    expect(cutMilli(42, 100)).toBe(0);
  });

  it('shares a load among the bills covering its days; days no bill covers are counted apart when in the year', () => {
    const load = { fromBillId: 'g', meterId: 'elec', periodStart: '2025-01-01', periodEnd: '2025-01-31', wh: 31_000 };
    const two = shareLoad(
      load,
      [
        { id: 'late', periodStart: '2025-01-15', periodEnd: '2025-02-14' },
        { id: 'early', periodStart: '2024-12-15', periodEnd: '2025-01-14' },
      ],
      2025,
    );
    expect(Object.fromEntries(two.byBill)).toEqual({ early: 14_000, late: 17_000 });
    expect(two.unpricedInYear).toBe(0);
    const gap = shareLoad(load, [{ id: 'late', periodStart: '2025-01-15', periodEnd: '2025-02-14' }], 2025);
    expect(Object.fromEntries(gap.byBill)).toEqual({ late: 17_000 });
    expect(gap.unpricedInYear).toBe(14_000);
    // 100 Wh over 3 days: 33 + 34 + 33 by running shares, adding back to 100.
    const odd = shareLoad(
      { ...load, periodEnd: '2025-01-03', wh: 100 },
      [{ id: 'b', periodStart: '2025-01-01', periodEnd: '2025-01-03' }],
      2025,
    );
    expect(odd.byBill.get('b')).toBe(100);
  });

  it('applies changes in order: a gas cut before electrifying shrinks the load, after it finds no gas', () => {
    const cutFirst = applyChanges(office(), [{ kind: 'cut', utilityType: 'gas', percent: 20 }, electrify(0.853, 2.5)], 2025);
    // 5,000 therms less 20 % = 4,000 therms x 10 kWh = 40,000 kWh a quarter, on the electric bill of the same quarter.
    expect(cutFirst.loads.map((l) => l.wh)).toEqual([40_000_000, 40_000_000, 40_000_000, 40_000_000]);
    expect(cutFirst.bills.find((b) => b.id === 'e0')).toMatchObject({
      usageMilli: 250_000_000,
      afterMilli: 290_000_000,
      addedWh: 40_000_000,
    });
    expect(cutFirst.bills.find((b) => b.id === 'g0')).toMatchObject({ usageMilli: 5_000_000, afterMilli: 0 });
    const cutAfter = applyChanges(office(), [electrify(0.853, 2.5), { kind: 'cut', utilityType: 'gas', percent: 20 }], 2025);
    expect(cutAfter.loads[0]!.wh).toBe(50_000_000);
    // An electric cut after electrifying cuts the electrified load too: (250,000 + 50,000) x 0.9 = 270,000 kWh.
    const elec = applyChanges(office(), [electrify(0.853, 2.5), { kind: 'cut', utilityType: 'electric', percent: 10 }], 2025);
    expect(elec.bills.find((b) => b.id === 'e3')!.afterMilli).toBe(270_000_000);
  });

  it('electrifying the office at 85.3 % / COP 2.5 leaves 1,200,000 kWh: LL97 346.754 t, 8.354 t over 338.4 t, $2,238.87', () => {
    const r = applyChanges(office(), [electrify(0.853, 2.5)], 2025);
    const bills = [
      ...r.bills.map((b) => ({ ...b, usageMilli: b.afterMilli === null ? null : b.afterMilli - b.addedWh })),
      ...r.loads.map((l) => ({ meterId: l.meterId, periodStart: l.periodStart, periodEnd: l.periodEnd, usageMilli: l.wh })),
    ];
    const meters = [
      { id: 'elec', name: 'Electric', utilityType: 'electric' as const },
      { id: 'gas', name: 'Gas', utilityType: 'gas' as const },
    ];
    const inv = yearInventory(2025, meters, bills, { subregion: 'NYCW', lbPerMwh: 886.58 });
    const energy = { electric: inv.meters[0]!.usage, gas: inv.meters[1]!.usage };
    expect(energy).toEqual({ electric: 1_200_000, gas: 0 });
    // 1,200,000 kWh x 0.000288962 = 346.7544 t; limit 0.00846 x 40,000 = 338.4 t; 8.354 t x $268 = $2,238.872.
    const e = ll97Emissions2024To2029(energy);
    expect(e.tco2e).toBeCloseTo(346.7544, 9);
    expect(excessAndPenalty(e.tco2e, 338.4)).toEqual({ excessTons: 8.354, penaltyCents: 223_887 });
    // Location-based: 1,200 MWh x 886.58 lb x 0.45359237 kg/lb = 482,575.11 kg; no gas left.
    expect(inv.tco2e).toBe(482.575);
    expect(r.unpricedWh).toBe(0);
  });

  it("adds an electrification's kW once to each electric bill carrying its load; two electrifications add up", () => {
    // A monthly gas meter (3 bills) electrified onto the quarterly electric meter: 3 loads land on e0, the kW counted once.
    const monthlyGas = ['01-31', '02-28', '03-31'].map((end, i) => ({
      id: `m${i}`,
      meterId: 'boiler2',
      utilityType: 'gas' as const,
      periodStart: `2025-0${i + 1}-01`,
      periodEnd: `2025-${end}`,
      usageMilli: 1_000_000,
    }));
    const bills = [...office(), ...monthlyGas];
    const r = applyChanges(
      bills,
      [
        { ...electrify(0.853, 2.5), addedDemandKw: 40 },
        { kind: 'electrify', meterId: 'boiler2', toMeterId: 'elec', gasEfficiency: 0.853, electricEfficiency: 2.5, addedDemandKw: 12.5 },
      ],
      2025,
    );
    const demand = (id: string) => r.bills.find((b) => b.id === id)!.addedDemandKw;
    expect(demand('e0')).toBe(52.5); // both loads: 40 + 12.5 (peaks taken as coincident)
    expect(demand('e1')).toBe(40); // only the first meter's load reaches April-June
    expect(demand('g0')).toBe(0);
    // Without the field, demand is kept as billed.
    expect(applyChanges(office(), [electrify(0.853, 2.5)], 2025).bills.every((b) => b.addedDemandKw === 0)).toBe(true);
  });

  it('scales a bill no tariff prices linearly from its billed amount, to the cent', () => {
    expect(scaledCents(12_345, 1_000, 800)).toBe(9_876);
    expect(scaledCents(101, 2, 1)).toBe(51); // 50.5 cents, half away from zero
    expect(scaledCents(6_000_00, 5_000_000, 0)).toBe(0);
    expect(scaledCents(4_200, null, null)).toBe(4_200);
    expect(scaledCents(4_200, 0, 1_000)).toBe(4_200);
  });
});
