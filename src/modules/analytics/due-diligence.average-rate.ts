/**
 * Due diligence by an average rate, when no tariff priced the building: the serving utility's own
 * average rate; without one, its state's (every utility's), then the nation's, said so (README,
 * "Due diligence").
 */
import { isTexasWiresUtility, nationalAverageRate, stateAverageRate, type AverageRate } from './average-rates';
import { averageRateAnnualCents } from './due-diligence.calc';
import type { AnswerFields, Candidates, Estimate } from './due-diligence.model';
import { choiceReason, kwhText } from './due-diligence.notes';
import type { TariffOutcome } from './due-diligence.tariffs';

/** The rate used, its notes, and the words for whose rate it is in the utility choice's reason. */
function fallbackRate(est: Estimate, utilityRate: AverageRate | null) {
  const { sector, state, utilityName, rates } = est;
  let rate = utilityRate;
  const rateNotes: string[] = [];
  let others = '';
  if (rate && isTexasWiresUtility(est.primary.id, state)) {
    rateNotes.push(
      `${utilityName} is a Texas (ERCOT) wires utility: its customers buy energy with delivery from retail providers, ` +
        'so the rate is what those providers charge on average',
    );
    others = `, the Texas retail providers' average (${utilityName} sells no energy)`;
  }
  if (!rate) {
    rate = stateAverageRate(rates, state, sector);
    if (rate) {
      rateNotes.push(
        `${utilityName} has no ${sector} average rate of its own: the ${state} average of every utility's bundled (part A) sales is used`,
      );
      others = `, the ${state} average of every utility (${utilityName} has no rate of its own)`;
    }
  }
  if (!rate) {
    rate = nationalAverageRate(rates, sector)!;
    rateNotes.push(
      `neither ${utilityName} nor ${state} has a ${sector} average rate: the national average of bundled (part A) sales is used`,
    );
    others = `, the national average of every utility (neither ${utilityName} nor ${state} has a rate)`;
  }
  return { rate, rateNotes, others };
}

/** Why no tariff priced the building, in the words of the answer. */
function whyNoTariff(est: Estimate, c: Candidates, o: TariffOutcome): string {
  const { sector, state, utilityName } = est;
  return o.deliveryWithoutSupply
    ? `its eligible ${sector} tariffs are delivery only and EIA-861 2018 reports no energy-only (part B) sales in ${state} to price supply`
    : o.implausibleTotal > 0
      ? `its eligible ${sector} tariffs price the building below half its average rate (records missing part of the bill)`
      : o.unpriced.length > 0
        ? `no eligible ${sector} tariff of ${utilityName} could be priced by the bill engine`
        : c.all.length === 0
          ? `the catalog has no ${sector} tariff of ${utilityName} in ${state}`
          : `${utilityName} has no eligible ${sector} tariff in ${state} ` +
            '(one the building is positively eligible for: general purpose, secondary or unstated voltage, bundled or delivery only, limits admitting the building, no restriction in its name or applicability text)';
}

/** The answer at an average rate, with the notes of which rate and why. */
export function averageRateAnswer(est: Estimate, c: Candidates, o: TariffOutcome): AnswerFields {
  const { sector, utilityName } = est;
  const { consumption } = est.model;
  const { rate, rateNotes, others } = fallbackRate(est, o.utilityRate);
  const why = whyNoTariff(est, c, o);
  const annualKwh = (consumption.perMeterMilli * consumption.meters) / 1000;
  const annualCents = averageRateAnnualCents(consumption.perMeterMilli, consumption.meters, rate.ratePerKwh);
  est.assumptions.push(
    `Priced at ${utilityName}'s average ${sector} rate, $${rate.ratePerKwh}/kWh (${rate.source}, ${rate.year}) x ${kwhText(annualKwh)} kWh a year, because ${why}`,
    ...rateNotes,
    ...o.unpriced,
  );
  return {
    reason: choiceReason(est.choice, `it is priced at an average rate${others} because ${why}`),
    annualCents,
    availableTariffs: 0,
    bestTariff: {
      name: `No tariff priced: ${utilityName}'s average ${sector} rate, $${rate.ratePerKwh}/kWh (${rate.source}, ${rate.year})`,
      estimated_annual_cost: annualCents / 100,
    },
    basis: { kind: 'average_rate', source: rate.source, year: rate.year, service_type: null, rate_per_kwh: rate.ratePerKwh, supply: null },
  };
}
