/**
 * The calendar months of a year that electric meters' interval readings cover whole (README "How a
 * year's emissions are computed", rule 2): read through the meters module's interval reader, the
 * same coverage the bill audit and rate analysis price bills from (meters README "Intervals over a
 * bill's period"), with each month as the period from its first day to its last.
 */
import { daysInMonth } from '../../platform/dates';
import { periodKey, type IntervalReader } from '../meters/public';
import { zoneOfProperty } from '../properties/timezone';
import type { IntervalMonth } from './emissions.calc';

type Reader = Pick<IntervalReader, 'metersWithReadings' | 'overPeriods'>;

export interface IntervalMeter {
  id: string;
  utilityType: string;
  /** The IANA zone of the meter's property (properties' `zoneOfProperty`): its months are local. */
  zone: string;
}

/** The twelve months of `year`, each from its first day to its last (YYYY-MM-DD, both included). */
export function monthsOfYear(year: number): Array<{ month: string; start: string; end: string }> {
  return Array.from({ length: 12 }, (_, i) => {
    const month = `${year}-${String(i + 1).padStart(2, '0')}`;
    return { month, start: `${month}-01`, end: `${month}-${String(daysInMonth(year, i + 1)).padStart(2, '0')}` };
  });
}

/**
 * Each electric meter's months of `year` whose every interval has a reading, with the readings' sum
 * (Wh); also which electric meters have any reading at all. One statement for which meters have
 * readings, then one per such meter.
 */
export async function intervalMonths(
  reader: Reader,
  year: number,
  meters: readonly IntervalMeter[],
): Promise<{ months: IntervalMonth[]; metersWithReadings: Set<string> }> {
  const electric = meters.filter((m) => m.utilityType === 'electric');
  const withReadings = await reader.metersWithReadings(electric.map((m) => m.id));
  const periods = monthsOfYear(year);
  const months: IntervalMonth[] = [];
  for (const meter of electric) {
    if (!withReadings.has(meter.id)) continue;
    const covered = await reader.overPeriods(meter.id, meter.zone, periods);
    for (const p of periods) {
      const r = covered.get(periodKey(p));
      // The reader's kWh is its Wh sum / 1000: back to the whole Wh.
      if (r?.ok) months.push({ meterId: meter.id, month: p.month, wh: Math.round(r.kwh * 1000) });
    }
  }
  return { months, metersWithReadings: withReadings };
}

/** `intervalMonths` of these properties' meters, each read in its property's zone (its own, else its ZIP code's). */
export function intervalMonthsOfProperties(
  reader: Reader,
  year: number,
  meters: ReadonlyArray<{ propertyId: string; id: string; utilityType: string }>,
  properties: ReadonlyArray<{ id: string; timezone: string | null; zipCode: string; state: string }>,
) {
  const zones = new Map(properties.map((p) => [p.id, zoneOfProperty(p)]));
  return intervalMonths(
    reader,
    year,
    meters.map((m) => ({ id: m.id, utilityType: m.utilityType, zone: zones.get(m.propertyId)! })),
  );
}

/** The note of an answer with a meter that has interval readings: how many meter-months they replaced the bills in, and the rule. */
export const intervalsNote = (year: number, meterMonths: number, where: string) =>
  `${meterMonths} meter-month${meterMonths === 1 ? '' : 's'} of ${year} counted from interval readings (${where}): an electric ` +
  "meter's calendar month whose every interval has a reading (Green Button import), in the property's time zone, is counted " +
  "from the readings' sum instead of its bills' calendarised share; its other months come from its bills, so no month is " +
  'counted twice. Factors are the same.';
