/**
 * Due diligence by tariffs: the serving utility's tariffs the building could take, priced month by
 * month by the bill engine (README, "Due diligence").
 */
import { isExpired, tariffNotices } from '../tariffs/tariff-notices';
import type { Tariff } from '../tariffs/tariff.model';
import { retailSupplyRate, servingUtilityRate, type AverageRate } from './average-rates';
import {
  annualBillCents,
  cheapestAndMedian,
  latestEndDate,
  latestRevisions,
  tariffExclusion,
  type PricedTariff,
  type TariffExclusion,
} from './due-diligence.calc';
import type { AnswerFields, Candidates, DueDiligenceDeps, Estimate } from './due-diligence.model';
import { URDB_SOURCE } from './due-diligence.model';
import { choiceReason, EXCLUSION_WORDS, kwhText, plural, predecessorNotes } from './due-diligence.notes';
import { belowHalfAverage } from './plausible-price';

const exclusionOf = (est: Estimate) => (t: Tariff) => tariffExclusion(t, est.sector, est.model.load.monthlyKwh, est.model.load.peakKw);

/** The utility's tariffs: the current ones; without any, the latest known revision of each schedule. */
export async function candidateTariffs(deps: DueDiligenceDeps, est: Estimate, ownerId: string | null): Promise<Candidates> {
  const { sector, state, utilityName, today } = est;
  const all = (await deps.utilityTariffs(est.primary.id, sector, state, ownerId)).filter((t) => t.state === state);
  const current = all.filter((t) => !isExpired(t, today));
  // Current means current *and* one the building could take (rate analysis's rule): a utility whose only current records
  // are special-purpose or restricted (a school rate, a cogeneration rate) has nothing current for this building, and its
  // latest known general revisions are priced.
  const currentUsable = current.filter((t) => {
    const why = exclusionOf(est)(t);
    return why === null || why === 'review';
  });
  const expired = all.filter((t) => isExpired(t, today));
  // With no expired record either, the catalog is current and simply holds nothing this building could take.
  const catalogCurrent = currentUsable.length > 0 || (current.length > 0 && expired.length === 0);
  const endDate = catalogCurrent ? null : latestEndDate(expired);
  const candidates = catalogCurrent ? current : latestRevisions(all);
  const which = catalogCurrent ? 'current' : 'latest known revisions (none current)';
  if (!catalogCurrent && all.length > 0) {
    const none =
      current.length > 0
        ? `in the catalog (URDB) that this building could take (its ${plural(current.length, 'current one')} ${current.length === 1 ? 'is' : 'are'} special-purpose or restricted)`
        : 'in the catalog (URDB)';
    est.assumptions.push(
      `${utilityName} has no current ${sector} tariff in ${state} ${none}: its ${plural(expired.length, current.length > 0 ? 'other tariff' : 'tariff')} ` +
        `expired by ${endDate}, so the latest known revision of each of its ${plural(candidates.length, 'schedule')} is priced; its rates today may differ`,
    );
  }
  return { all, catalogCurrent, latestEndDate: endDate, which, eligible: eligibleOf(est, candidates, catalogCurrent) };
}

/** The candidates the building is eligible for, bundled and delivery only; the others counted in a note by reason. */
function eligibleOf(est: Estimate, candidates: readonly Tariff[], catalogCurrent: boolean): Candidates['eligible'] {
  const eligible = { bundled: [] as Tariff[], deliveryOnly: [] as Tariff[] };
  const excluded = new Map<TariffExclusion, number>();
  for (const t of candidates) {
    const reason = exclusionOf(est)(t);
    if (reason) excluded.set(reason, (excluded.get(reason) ?? 0) + 1);
    else (t.serviceType === 'bundled' ? eligible.bundled : eligible.deliveryOnly).push(t);
  }
  if (excluded.size > 0) {
    const total = [...excluded.values()].reduce((s, n) => s + n, 0);
    const parts = (Object.keys(EXCLUSION_WORDS) as TariffExclusion[])
      .filter((k) => excluded.has(k))
      .map((k) => `${excluded.get(k)} ${EXCLUSION_WORDS[k]}`);
    est.assumptions.push(
      `Not eligible: ${plural(total, `${catalogCurrent ? 'current ' : ''}${est.sector} tariff`)} of ${est.utilityName} in ${est.state} (${parts.join('; ')})`,
    );
  }
  return eligible;
}

/** Why tariffs did not price the building, for the average-rate answer. */
export interface TariffOutcome {
  /** The utility's own average rate, if it has one. */
  utilityRate: AverageRate | null;
  /** Eligible tariffs left out as implausible (below half the utility's average rate). */
  implausibleTotal: number;
  /** Notes on eligible tariffs that were not priced. */
  unpriced: string[];
  /** Only delivery-only tariffs were eligible, and the state has no supply price. */
  deliveryWithoutSupply: boolean;
}

/**
 * An analyst's plausibility check (plausible-price.ts, the rule rate analysis uses too): a tariff that prices the
 * building below half the utility's own average rate leaves a part of the bill out: it is not quoted.
 */
function priceTariffs(
  deps: DueDiligenceDeps,
  est: Estimate,
  list: Tariff[],
  supplyRatePerKwh: number | null,
  utilityRate: AverageRate | null,
) {
  const { model } = est;
  const perMeterKwh = model.consumption.perMeterMilli / 1000;
  const priced: PricedTariff[] = [];
  const byId = new Map<string, Tariff>();
  let implausible = 0;
  for (const tariff of list) {
    const perMeter = annualBillCents(model.months, (m) =>
      deps.monthlyBill(tariff, {
        usageKwh: m.usageMilli / 1000,
        demandKw: m.demandMilli / 1000,
        month: m.month,
        supplyRatePerKwh,
      }),
    );
    if (perMeter === null) continue;
    if (belowHalfAverage(perMeter, perMeterKwh, utilityRate)) {
      implausible += 1;
      continue;
    }
    priced.push({ id: tariff.id, name: tariff.name, annualCents: perMeter * model.consumption.meters });
    byId.set(tariff.id, tariff);
  }
  return { priced, byId, implausible };
}

/** The answer by tariffs: its eligible bundled tariffs, else its delivery-only ones with a supply price; null when none priced. */
export function priceOnTariffs(
  deps: DueDiligenceDeps,
  est: Estimate,
  c: Candidates,
): { fields: AnswerFields | null; outcome: TariffOutcome } {
  const { sector, state, utilityName } = est;
  const utilityRate = servingUtilityRate(est.rates, { utilityId: est.primary.id, state, zipCode: est.input.zip_code, sector });
  const outcome: TariffOutcome = { utilityRate, implausibleTotal: 0, unpriced: [], deliveryWithoutSupply: false };
  const supply = retailSupplyRate(est.rates, state, sector);
  for (const serviceType of ['bundled', 'delivery_only'] as const) {
    const list = serviceType === 'bundled' ? c.eligible.bundled : c.eligible.deliveryOnly;
    if (list.length === 0) continue;
    if (serviceType === 'delivery_only' && !supply) {
      outcome.deliveryWithoutSupply = true;
      break;
    }
    const { priced, byId, implausible } = priceTariffs(
      deps,
      est,
      list,
      serviceType === 'delivery_only' ? supply!.ratePerKwh : null,
      utilityRate,
    );
    outcome.implausibleTotal += implausible;
    if (implausible > 0) {
      outcome.unpriced.push(
        `${plural(implausible, 'eligible tariff')} of ${utilityName} left out: priced below half its average ${sector} rate, ` +
          `$${utilityRate!.ratePerKwh}/kWh (${utilityRate!.source}, ${utilityRate!.year}), a record missing part of the bill`,
      );
    }
    if (list.length > priced.length + implausible) {
      outcome.unpriced.push(
        `${plural(list.length - priced.length - implausible, 'eligible tariff')} of ${utilityName} the bill engine cannot price`,
      );
    }
    const picked = cheapestAndMedian(priced);
    if (!picked) continue;
    const pick: Pick = {
      count: priced.length,
      median: byId.get(picked.median.id)!,
      cheapest: byId.get(picked.cheapest.id)!,
      medianAnnualCents: picked.median.annualCents,
      cheapestAnnualCents: picked.cheapest.annualCents,
    };
    return { fields: pricedAnswer(est, c, serviceType, pick, [...byId.values()], supply, outcome.unpriced), outcome };
  }
  return { fields: null, outcome };
}

/** The priced tariffs' median and cheapest, and how many were priced. */
interface Pick {
  count: number;
  median: Tariff;
  cheapest: Tariff;
  cheapestAnnualCents: number;
  medianAnnualCents: number;
}

/** The answer's figures on the median tariff, and the notes of how it was priced. */
function pricedAnswer(
  est: Estimate,
  c: Candidates,
  serviceType: 'bundled' | 'delivery_only',
  picked: Pick,
  priced: Tariff[],
  supply: AverageRate | null,
  unpriced: string[],
): AnswerFields {
  const { sector, state, utilityName, assumptions } = est;
  const { median, cheapest } = picked;
  const kind = serviceType === 'bundled' ? 'bundled' : 'delivery-only';
  assumptions.push(
    `Priced on the ${plural(picked.count, `eligible ${kind} ${sector} tariff`)} of ${utilityName} in ${state} (${c.which}, general purpose, ` +
      `secondary or unstated voltage, applicability admitting ${kwhText(est.model.load.monthlyKwh)} kWh a month and a ` +
      `${kwhText(est.model.load.peakKw)} kW peak per meter), month by month by the bill engine: estimated_costs use the median ` +
      `"${median.name}", best_tariff the cheapest "${cheapest.name}"`,
  );
  const inherited = predecessorNotes(priced, utilityName);
  assumptions.push(...inherited.notes);
  if (serviceType === 'delivery_only') {
    assumptions.push(
      `Supply: the tariffs are delivery only, so each month's kWh is added at $${supply!.ratePerKwh}/kWh, ` +
        `the ${state} ${sector} average of ${supply!.source} (${supply!.year}): a retail supplier's average price`,
    );
  } else if (c.eligible.deliveryOnly.length > 0) {
    assumptions.push(
      `${plural(c.eligible.deliveryOnly.length, 'eligible delivery-only tariff')} of ${utilityName} not priced: bundled tariffs preferred`,
    );
  }
  assumptions.push(...unpriced);
  for (const [label, t] of median.id === cheapest.id
    ? [['Median and cheapest', median] as const]
    : [['Median', median] as const, ['Cheapest', cheapest] as const]) {
    for (const note of tariffNotices(t, est.today)) assumptions.push(`${label} tariff "${t.name}": ${note}`);
  }
  const basisNote =
    (c.catalogCurrent
      ? `its ${kind} ${sector} tariffs are priced`
      : `its latest known ${kind} ${sector} tariff revisions are priced (none is current)`) + inherited.reason;
  return {
    reason: choiceReason(est.choice, basisNote),
    annualCents: picked.medianAnnualCents,
    availableTariffs: picked.count,
    bestTariff: { name: cheapest.name, estimated_annual_cost: picked.cheapestAnnualCents / 100 },
    basis: {
      kind: 'tariffs',
      source: URDB_SOURCE,
      year: median.effectiveDate ? Number(median.effectiveDate.slice(0, 4)) : null,
      service_type: serviceType,
      rate_per_kwh: null,
      supply: serviceType === 'delivery_only' ? { rate_per_kwh: supply!.ratePerKwh, source: supply!.source, year: supply!.year } : null,
    },
  };
}
