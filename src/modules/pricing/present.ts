import { usageOf, type Tariff } from '../tariffs/tariff.model';
import type { BillResult } from './engine';
import { roundDiv } from './engine/money';
import type { BillResponse, CompareResponse } from './schemas';

export function presentBill(bill: BillResult, tariff: Tariff, usage: number): BillResponse {
  const s = bill.summary;
  const { utilityType, unit } = usageOf(tariff);
  return {
    tariff_id: bill.tariffId,
    tariff_name: bill.tariffName,
    month: bill.month,
    season: bill.season,
    total_cost: bill.totalCost,
    line_items: bill.lineItems,
    summary: {
      energy_charge: s.energyCharge,
      demand_charge: s.demandCharge,
      fixed_charge: s.fixedCharge,
      riders: s.riders,
      taxes_estimate: s.taxesEstimate,
      effective_rate_per_kwh: utilityType === 'electric' ? s.effectiveRatePerKwh : null,
      effective_rate_per_unit: s.effectiveRatePerKwh,
    },
    utility_type: utilityType,
    usage,
    unit,
    assumptions: bill.assumptions,
  };
}

/** Results ranked by total, cheapest first; equal totals keep the request's order (Array.prototype.sort is stable). */
export function rankBills(bills: BillResult[], electric = true): CompareResponse['results'] {
  return [...bills]
    .sort((a, b) => a.totalCostCents - b.totalCostCents)
    .map((b, i) => ({
      tariff_id: b.tariffId,
      tariff_name: b.tariffName,
      total_cost: b.totalCost,
      effective_rate_per_kwh: electric ? b.summary.effectiveRatePerKwh : null,
      effective_rate_per_unit: b.summary.effectiveRatePerKwh,
      rank: i + 1,
      assumptions: b.assumptions,
    }));
}

/** Most expensive minus cheapest, and that over the most expensive total in percent (1 decimal; 0 when that total is not above 0). */
export function potentialSavings(bills: BillResult[]): CompareResponse['potential_savings'] {
  let min = Infinity;
  let max = -Infinity;
  for (const b of bills) {
    if (b.totalCostCents < min) min = b.totalCostCents;
    if (b.totalCostCents > max) max = b.totalCostCents;
  }
  const diff = max - min;
  return {
    vs_most_expensive: diff / 100,
    vs_most_expensive_percent: max > 0 ? roundDiv(diff * 1000, max) / 10 : 0,
  };
}
