import { utcDay } from '../../platform/dates';
import type { Db } from '../../platform/db/client';
import { notFound, unprocessable } from '../../platform/http/errors';
import { findTariffsByIds } from '../tariffs/repository';
import { TtlCache } from '../../platform/ttl-cache';
import type { Tariff } from '../tariffs/tariff.model';
import { tariffNotices } from '../tariffs/tariff-notices';
import { BillingError, calculateBill, type BillRequest, type BillResult, type LoadShapeSet } from './engine';
import { roundDiv } from './engine/money';
import type { BillResponse, CalculateBody, CompareBody, CompareResponse } from './schemas';

export interface CalculatorService {
  /** POST /calculate: one tariff's bill for the month. */
  calculate(body: CalculateBody): Promise<BillResponse>;
  /** POST /calculate/compare: 2-10 tariffs for the same usage, cheapest first. */
  compare(body: CompareBody): Promise<CompareResponse>;
}

export interface CalculatorDeps {
  db: Db;
  now: () => Date;
  loadShapes: () => LoadShapeSet;
}

/**
 * Tariffs are reference data that change only when the bundle is re-imported,
 * so the calculator keeps recently used ones for a minute: repeated bills skip
 * the query and reuse the engine's per-tariff precomputation (cached on the
 * tariff object). A re-import is seen within that minute.
 */
const TARIFF_CACHE_MS = 60_000;
const TARIFF_CACHE_ENTRIES = 2000;

type UsageFields = Omit<CalculateBody, 'tariff_id' | 'tax_rate_percent'> & { tax_rate_percent?: number | null };

function billRequest(body: UsageFields, month: number): BillRequest {
  const p = body.usage_profile;
  return {
    usageKwh: body.usage_kwh,
    month,
    demandKw: body.demand_kw ?? null,
    solarGenerationKwh: body.solar_generation_kwh ?? null,
    usageProfile: p ? { onPeakKwh: p.on_peak_kwh, midPeakKwh: p.mid_peak_kwh, offPeakKwh: p.off_peak_kwh } : null,
    taxRatePercent: body.tax_rate_percent ?? null,
    supplyRatePerKwh: body.supply_rate_per_kwh ?? null,
  };
}

export function presentBill(bill: BillResult): BillResponse {
  const s = bill.summary;
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
      effective_rate_per_kwh: s.effectiveRatePerKwh,
    },
    assumptions: bill.assumptions,
  };
}

/** Results ranked by total, cheapest first; equal totals keep the request's order (Array.prototype.sort is stable). */
export function rankBills(bills: BillResult[]): CompareResponse['results'] {
  return [...bills]
    .sort((a, b) => a.totalCostCents - b.totalCostCents)
    .map((b, i) => ({
      tariff_id: b.tariffId,
      tariff_name: b.tariffName,
      total_cost: b.totalCost,
      effective_rate_per_kwh: b.summary.effectiveRatePerKwh,
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

export function createCalculatorService(deps: CalculatorDeps): CalculatorService {
  const monthOf = (m: number | null | undefined) => m ?? deps.now().getUTCMonth() + 1;
  const cache = new TtlCache<Tariff>(TARIFF_CACHE_MS, TARIFF_CACHE_ENTRIES);

  /** The known tariffs among `ids`, cached ones first; the rest in one query. */
  async function loadTariffs(ids: string[]): Promise<Map<string, Tariff>> {
    const found = new Map<string, Tariff>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = cache.get(id);
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    if (missing.length) {
      for (const t of await findTariffsByIds(deps.db, missing)) {
        cache.set(t.id, t);
        found.set(t.id, t);
      }
    }
    return found;
  }

  /** The engine's bill, with what the answer must say about the tariff's data (its age, its class). */
  function price(tariff: Tariff, req: BillRequest, inCompare: boolean): BillResult {
    try {
      const bill = calculateBill(tariff, req, deps.loadShapes());
      bill.assumptions.push(...tariffNotices(tariff, utcDay(deps.now())));
      return bill;
    } catch (err) {
      if (!(err instanceof BillingError)) throw err;
      const detail = inCompare && err.code === 'demand_required' ? `${err.message}: ${tariff.id}` : err.message;
      throw unprocessable(detail, err.field);
    }
  }

  return {
    async calculate(body) {
      const tariff = (await loadTariffs([body.tariff_id])).get(body.tariff_id);
      if (!tariff) throw notFound('Tariff not found');
      return presentBill(price(tariff, billRequest(body, monthOf(body.month)), false));
    },

    async compare(body) {
      const found = await loadTariffs(body.tariff_ids);
      const missing = body.tariff_ids.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`Tariff not found: ${missing}`);
      const month = monthOf(body.month);
      const req = billRequest(body, month);
      const bills = body.tariff_ids.map((id) => price(found.get(id) as Tariff, req, true));
      const results = rankBills(bills);
      return {
        usage_kwh: body.usage_kwh,
        demand_kw: body.demand_kw ?? null,
        month,
        results,
        cheapest: results[0].tariff_id,
        potential_savings: potentialSavings(bills),
      };
    },
  };
}
