import { fromCents, roundDiv } from './money';

/** One tariff priced for a property: its estimated monthly cost in cents. */
export interface PricedTariff {
  id: string;
  name: string;
  monthlyCostCents: number;
}

export interface RateAlternative {
  tariff_id: string;
  name: string;
  estimated_monthly_cost: number;
  /** Current monthly cost minus this one (negative when it costs more); null without a current tariff. */
  monthly_savings: number | null;
  annual_savings: number | null;
  savings_percent: number | null;
}

export interface RateAnalysis {
  property_id: string;
  current_tariff: { id: string; name: string; estimated_monthly_cost: number } | null;
  alternatives: RateAlternative[];
  recommendation: string;
  analyzed_at: string;
}

/**
 * SPEC.md's rate analysis over already priced tariffs:
 * monthly_savings = current - alternative; annual_savings = 12 x monthly_savings;
 * savings_percent = monthly_savings / current x 100, 1 decimal (0 when the current cost is 0).
 * Alternatives are ordered cheapest first. The recommendation is the cheapest alternative when
 * it saves money, else the current tariff; without a current tariff it is the cheapest one.
 */
export function analyzeRates(input: {
  propertyId: string;
  current: PricedTariff | null;
  candidates: PricedTariff[];
  analyzedAt: Date;
}): RateAnalysis {
  const { current } = input;
  const alternatives = input.candidates
    .filter((c) => c.id !== current?.id)
    .sort((a, b) => a.monthlyCostCents - b.monthlyCostCents || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((alt): RateAlternative => {
      if (!current) {
        return {
          tariff_id: alt.id, name: alt.name, estimated_monthly_cost: fromCents(alt.monthlyCostCents),
          monthly_savings: null, annual_savings: null, savings_percent: null,
        };
      }
      const savingsCents = current.monthlyCostCents - alt.monthlyCostCents;
      return {
        tariff_id: alt.id,
        name: alt.name,
        estimated_monthly_cost: fromCents(alt.monthlyCostCents),
        monthly_savings: fromCents(savingsCents),
        annual_savings: fromCents(12 * savingsCents),
        savings_percent: current.monthlyCostCents === 0 ? 0 : roundDiv(BigInt(savingsCents) * 1000n, current.monthlyCostCents) / 10,
      };
    });
  const cheapest = alternatives[0];
  let recommendation: string;
  if (!current) {
    if (!cheapest) throw new RangeError('nothing to recommend: no current tariff and no candidates');
    recommendation = cheapest.tariff_id;
  } else {
    recommendation = cheapest && (cheapest.monthly_savings ?? 0) > 0 ? cheapest.tariff_id : current.id;
  }
  return {
    property_id: input.propertyId,
    current_tariff: current
      ? { id: current.id, name: current.name, estimated_monthly_cost: fromCents(current.monthlyCostCents) }
      : null,
    alternatives,
    recommendation,
    analyzed_at: input.analyzedAt.toISOString(),
  };
}

/** Savings of the recommendation over the current tariff, in cents (0 when it is the current one). */
export function recommendationSavingsCents(analysis: RateAnalysis): number | null {
  if (!analysis.current_tariff) return null;
  const alt = analysis.alternatives.find((a) => a.tariff_id === analysis.recommendation);
  return alt?.monthly_savings ? Math.round(alt.monthly_savings * 100) : 0;
}
