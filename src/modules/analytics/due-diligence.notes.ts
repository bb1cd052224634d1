import type { DueDiligenceInput } from './schemas';
import type { TariffExclusion } from './due-diligence.calc';
import type { Model } from './due-diligence.model';
import type { ServingUtility } from './due-diligence.repository';
import type { Tariff } from '../tariffs/tariff.model';
import { filedByPredecessor } from '../utilities/successors';

/** The words of due diligence's `assumptions`: what the estimate rests on, in sentences. */

export const EXCLUSION_WORDS: Record<TariffExclusion, string> = {
  sector: 'another sector',
  closed: 'closed to new customers',
  purpose: 'special purpose (lighting, standby, interruptible, ...)',
  voltage: 'primary or transmission voltage',
  service_type: 'supply only',
  applicability: "applicability not admitting the building's usage or demand",
  restriction: 'restricted by their name or applicability text (a kind of customer, equipment, a program, phase, size)',
  review: 'eligibility not shown (a condition the rules cannot read, a phase the building may not have, no sign of a general rate)',
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
    const whose =
      m.usage.basis === 'utility'
        ? utilityName
        : m.usage.basis === 'state'
          ? `${state} (the utility reports no residential customers)`
          : 'the US';
    notes.push(
      `Consumption: ${input.unit_count} ${input.unit_count === 1 ? 'unit' : 'units'} x ${kwhText(m.usage.kwhPerCustomer)} kWh a year, ` +
        `the EIA-861 2018 average residential customer (residential sales / customers) of ${whose}; each unit is its own metered customer`,
    );
  } else {
    notes.push(
      `Consumption: ${sqft!.toLocaleString('en-US')} sqft x 14.6 kWh/sqft = ${kwhText(m.consumption.perMeterMilli / 1000)} kWh a year ` +
        '(EIA CBECS 2012, Table C14, electricity per square foot of all buildings), billed as one meter',
    );
  }
  notes.push(
    shapeId
      ? `Months and demand: the ${sector} load shape "${shapeId}" (data/reference/load-shapes.json) spreads the year by its monthly shares; ` +
          "a month's demand is its kWh x the shape's largest hourly share of that month"
      : `Months and demand: no ${sector} load shape, so the year is spread by days per month and demand is not modelled`,
  );
  return notes;
}

/** The ZIP code's serving utilities, primary first, as the answer's `utility_choice` explains them. */
export interface UtilityChoice {
  zipCode: string;
  state: string;
  /** GeoNames' name of the ZIP code's county, null when unknown. */
  county: string | null;
  utilities: ServingUtility[];
}

const count = (n: number | null) => (n === null ? 'not estimated' : n.toLocaleString('en-US'));
const nameOf = (u: ServingUtility) => u.name ?? `EIA utility ${u.id}`;

/**
 * `utility_choice`: the priced utility is the ZIP code's primary one (GET /utilities/by-zip's first),
 * why, and the others serving the ZIP code that were not priced.
 */
export function choiceReason(c: UtilityChoice, basisNote: string) {
  const [primary, ...others] = c.utilities;
  const name = nameOf(primary!);
  let why: string;
  if (others.length === 0) {
    why = `${name} is the only utility serving ZIP code ${c.zipCode} in ${c.state}`;
  } else if (primary!.markedPrimary) {
    const otherCounts = others.map((u) => `${nameOf(u)} ${count(u.estimatedCustomersInCounty)}`).join(', ');
    why =
      `${name} is the primary utility of ZIP code ${c.zipCode}: the ENERGY STAR utility map marks it as the utility serving most of ` +
      `the ZIP code and the NREL ZIP table lists it there, so it comes first although the estimated retail customers in its county ` +
      `(${c.county ?? 'unknown'}, ${c.state}) are ${count(primary!.estimatedCustomersInCounty)}, against ${otherCounts} ` +
      `(GET /utilities/by-zip/${c.zipCode} gives this order)`;
  } else if (c.county && primary!.estimatedCustomersInCounty !== null) {
    why =
      `${name} is the primary utility of ZIP code ${c.zipCode}: of the ${c.utilities.length} utilities serving it in ${c.state}, it has the most ` +
      `estimated retail customers in its county (${c.county}, ${c.state}), ${count(primary!.estimatedCustomersInCounty)}, against ` +
      `${others.map((u) => `${nameOf(u)} ${count(u.estimatedCustomersInCounty)}`).join(', ')} (EIA-861 2018 customers in the state spread over ` +
      `each utility's counties by their number of ZIP codes; GET /utilities/by-zip/${c.zipCode} gives this order)`;
  } else {
    why =
      `${name} is the primary utility of ZIP code ${c.zipCode}: it comes first of the ${c.utilities.length} utilities serving it in ${c.state} ` +
      `(GET /utilities/by-zip/${c.zipCode}; no customers in the ZIP code's county could be estimated, so by EIA-861 2018 customers)`;
  }
  return {
    reason: `${why}; ${basisNote}. No other utility's tariffs are priced.`,
    county: c.county,
    estimated_customers_in_county: primary!.estimatedCustomersInCounty,
    other_utilities: others.map((u) => ({
      id: Number(u.id),
      name: nameOf(u),
      estimated_customers_in_county: u.estimatedCustomersInCounty,
    })),
  };
}

/**
 * The priced tariffs a merged utility filed before its merger into the serving utility (utilities/successors.ts): they are
 * the serving utility's now, for that utility's former service area, which the answer says.
 */
export function predecessorNotes(priced: Tariff[], utilityName: string): { notes: string[]; reason: string } {
  const by = new Map<string, { label: string; count: number }>();
  for (const t of priced) {
    const p = filedByPredecessor(t.eligibility);
    if (!p) continue;
    const key = `${p.name} (EIA ${p.id}) before it merged into ${utilityName} on ${p.effective}`;
    by.set(key, { label: key, count: (by.get(key)?.count ?? 0) + 1 });
  }
  const notes = [...by.values()].map(
    ({ label, count }) =>
      `${count} of the ${priced.length} priced tariffs ${count === 1 ? 'was' : 'were'} ` +
      `filed by ${label}: ${utilityName}'s rates for customers of that former service area, which may differ elsewhere`,
  );
  const reason = by.size === 0 ? '' : ` (${[...by.values()].map(({ label, count }) => `${count} filed by ${label}`).join('; ')})`;
  return { notes, reason };
}
