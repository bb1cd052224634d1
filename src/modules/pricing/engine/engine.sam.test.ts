/**
 * The engine against NREL SAM's utilityrate5 on the same hourly load: the monthly bills of real
 * URDB tariffs SAM computed (test/fixtures/sam/utilityrate5-bills.json, produced as the pricing
 * README "Interval data" says), to the cent. SAM has no holidays (it prices them as weekdays) and
 * the engine prices federal holidays on the weekend schedule, so the months compared are those of
 * 2018 without a federal holiday: March, April, June and August.
 *
 * SAM adds unrounded charges and the month's bill is rounded once; the engine rounds every line item
 * to the cent (pricing README "Quantities and money"). So each charge (energy, demand, fixed and
 * minimum) and the total agree to the cent up to that rounding: at most half a cent per line item.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bill, bundledTariffs } from './engine.fixtures';

interface SamCase {
  label: string;
  name: string;
  structure: string;
  /** Its energy schedule or flat demand changes with the month. */
  seasonal: boolean;
  sam_monthly_bill: number[];
  sam_monthly_energy_charge: number[];
  sam_monthly_demand_charge: number[];
  sam_monthly_fixed_charge: number[];
}
interface SamFixture {
  load: { start: string; interval_minutes: number; kwh: number[] };
  cases: SamCase[];
}

const fixture = JSON.parse(readFileSync(join(__dirname, '../../../../test/fixtures/sam/utilityrate5-bills.json'), 'utf8')) as SamFixture;
const MONTHS_WITHOUT_HOLIDAYS = [3, 4, 6, 8];
const DAYS_2018 = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The load's hours of `month` (1-12) of 2018 as intervals, at the fixture's fixed offset. */
function monthIntervals(month: number) {
  const first = DAYS_2018.slice(0, month - 1).reduce((s, d) => s + d, 0) * 24;
  const kwh = fixture.load.kwh.slice(first, first + DAYS_2018[month - 1] * 24);
  return { start: `2018-${String(month).padStart(2, '0')}-01T00:00:00-07:00`, intervalMinutes: 60, kwh };
}

const tariffs = bundledTariffs(Object.fromEntries(fixture.cases.map((c) => [c.label, c.label])));

/** |engine - SAM| within half a cent per line item of the engine's that makes up the amount. */
function agrees(engine: number, sam: number, lines: number): boolean {
  return Math.abs(engine - sam) <= 0.005 * lines + 1e-9;
}

describe('interval pricing agrees with NREL SAM utilityrate5 (hourly load, fixed offset)', () => {
  it('holds at least 20 tariffs of every structure (TOU and flat energy, tiers, TOU and flat demand, seasons)', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(20);
    expect(fixture.cases.filter((c) => c.seasonal).length).toBeGreaterThanOrEqual(10);
    const structures = new Set(fixture.cases.map((c) => c.structure));
    for (const s of [
      'tou/notier',
      'tou/tiers',
      'flat/tiers',
      'flat/notier/flatdemand',
      'flat/notier/toudemand',
      'tou/tiers/toudemand/flatdemand',
    ])
      expect(structures).toContain(s);
  });

  it.each(fixture.cases.map((c) => [c.label, c.structure, c] as const))('%s (%s)', (label, _structure, c) => {
    for (const month of MONTHS_WITHOUT_HOLIDAYS) {
      const intervals = monthIntervals(month);
      const usageKwh = intervals.kwh.reduce((s, x) => s + Math.round(x * 1000), 0) / 1000;
      const b = bill(tariffs[label], { usageKwh, month, intervals });
      const lines = (category: string) => b.lineItems.filter((i) => i.category === category).length;
      const m = month - 1;
      const got = {
        energy: agrees(b.summary.energyCharge, c.sam_monthly_energy_charge[m], lines('energy')),
        demand: agrees(b.summary.demandCharge, c.sam_monthly_demand_charge[m], lines('demand')),
        fixed: agrees(b.summary.fixedCharge, c.sam_monthly_fixed_charge[m], lines('fixed')),
        total: agrees(b.totalCost, c.sam_monthly_bill[m], b.lineItems.length),
      };
      expect({ month, ...got }).toEqual({ month, energy: true, demand: true, fixed: true, total: true });
    }
  });
});
