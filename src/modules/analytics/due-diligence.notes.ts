import type { DueDiligenceInput } from './schemas';
import type { TariffExclusion } from './due-diligence.calc';
import type { Model } from './due-diligence';

/** The words of due diligence's `assumptions`: what the estimate rests on, in sentences. */

export const EXCLUSION_WORDS: Record<TariffExclusion, string> = {
  sector: 'another sector',
  closed: 'closed to new customers',
  purpose: 'special purpose (lighting, standby, interruptible, ...)',
  voltage: 'primary or transmission voltage',
  service_type: 'supply only',
  applicability: "applicability not admitting the building's usage or demand",
};

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
export const kwhText = (kwh: number) => kwh.toLocaleString('en-US', { maximumFractionDigits: 3 });

export function consumptionNotes(
  ctx: { input: DueDiligenceInput; sqft: number | null; state: string; sector: string; shapeId: string | null | undefined },
  m: Model,
  utilityName: string,
): string[] {
  const { input, sqft, state, sector, shapeId } = ctx;
  const notes: string[] = [];
  if (m.usage) {
    const whose = m.usage.basis === 'utility' ? utilityName : m.usage.basis === 'state' ? `${state} (the utility reports no residential customers)` : 'the US';
    notes.push(`Consumption: ${input.unit_count} ${input.unit_count === 1 ? 'unit' : 'units'} x ${kwhText(m.usage.kwhPerCustomer)} kWh a year, `
      + `the EIA-861 2018 average residential customer (residential sales / customers) of ${whose}; each unit is its own metered customer`);
  } else {
    notes.push(`Consumption: ${sqft!.toLocaleString('en-US')} sqft x 14.6 kWh/sqft = ${kwhText(m.consumption.perMeterMilli / 1000)} kWh a year `
      + '(EIA CBECS 2012, Table C14, electricity per square foot of all buildings), billed as one meter');
  }
  notes.push(shapeId
    ? `Months and demand: the ${sector} load shape "${shapeId}" (data/reference/load-shapes.json) spreads the year by its monthly shares; `
      + "a month's demand is its kWh x the shape's largest hourly share of that month"
    : `Months and demand: no ${sector} load shape, so the year is spread by days per month and demand is not modelled`);
  return notes;
}
