import { stateOfZip } from '../utilities/zip-states';
import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { unprocessable, validationFailed } from '../../platform/http/errors';
import { requireOwnedBy } from '../../platform/http/owned';
import { offsetOf, toPage } from '../../platform/http/pagination';
import type { TariffCatalog } from './tariff-catalog';
import type { PortfolioService } from '../portfolios/service';
import { energyPctOfNoi, type MonthlyBillTotal } from './energy-cost';
import { annualCostWithoutBills, createEstimates } from './estimate';
import { createPropertyRepository, type PropertyRow, type PropertyValues } from './repository';
import type { CreatePropertyInput, PropertyListQuery, UpdatePropertyInput } from './schemas';
import { presentListItem, presentProperty } from './presenter';
import { createMeterRepository } from '../meters/public';
import { createTariffChecks } from './tariff-checks';
import { createEstimateWrites } from './service.estimates';

export interface PropertyServiceDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  tariffs: TariffCatalog;
  monthlyBill: MonthlyBillTotal;
  portfolios: Pick<PortfolioService, 'requireOwned'>;
  /** Queues a re-analysis of the property's rates (the rate-analysis queue). */
  requestAnalysis(propertyId: string, version: string): Promise<unknown>;
  /** Queues the owner's analytics recompute after a write (never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** Queues the audit of the property's bills after its tariff or supply changed (never throws). */
  pricingChanged?(propertyId: string): Promise<void>;
  /** The property's one annual cost (analytics, up to date with every write), null without one. */
  annualCost?(ownerId: string, propertyId: string): Promise<PropertyAnnualCost | null>;
}

/** A property's one annual cost, in total and per utility type (analytics README "One annual cost"). */
export interface PropertyAnnualCost {
  cents: number;
  basis: 'actual' | 'estimate';
  byUtility: Array<{ utility_type: string; cost: number; usage: number | null; unit: string; basis: 'actual' | 'estimate' }>;
}

/** API field -> column, for the fields a client may set. */
const FIELD_COLUMNS = {
  name: 'name',
  address: 'address',
  city: 'city',
  state: 'state',
  zip_code: 'zipCode',
  property_type: 'propertyType',
  sqft: 'sqft',
  unit_count: 'unitCount',
  year_built: 'yearBuilt',
  portfolio_id: 'portfolioId',
  utility_account_number: 'utilityAccountNumber',
  meter_number: 'meterNumber',
  tariff_id: 'tariffId',
  monthly_usage_kwh: 'monthlyUsageKwh',
  monthly_demand_kw: 'monthlyDemandKw',
  supply_rate_per_kwh: 'supplyRatePerKwh',
  supply_tariff_id: 'supplyTariffId',
  has_solar: 'hasSolar',
  timezone: 'timezone',
  solar_capacity_kw: 'solarCapacityKw',
  annual_revenue: 'annualRevenue',
  noi: 'noi',
} as const satisfies Record<keyof UpdatePropertyInput, keyof PropertyValues>;

/** Fields whose change alters the cost estimate and so the rate analysis. */
const PRICING_FIELDS = ['tariffId', 'monthlyUsageKwh', 'monthlyDemandKw', 'supplyRatePerKwh', 'supplyTariffId'] as const;

function toColumns(input: UpdatePropertyInput): Partial<PropertyValues> {
  const values: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
    const v = (input as Record<string, unknown>)[field];
    if (v !== undefined) values[column] = v;
  }
  return values as Partial<PropertyValues>;
}

/** A known ZIP code fixes the state (data/reference/README.md, "ZIP codes and states"); an unknown one is accepted as sent. */
function checkZipState(zipCode: string, state: string): void {
  const zipState = stateOfZip(zipCode);
  if (zipState !== null && zipState !== state) {
    throw unprocessable(`zip_code ${zipCode} is in ${zipState}, not ${state}`, 'zip_code');
  }
}

/**
 * The property as the API shows it: energy_pct_of_noi is its one annual cost (analytics) over
 * its noi. A new property has no bills: its annual cost is the estimate (`fromEstimate`).
 */
async function present(deps: PropertyServiceDeps, ownerId: string, row: PropertyRow, fromEstimate = false) {
  if (row.noi === null || row.noi <= 0) return presentProperty(row, null); // no percent to give: nothing to read
  const annualCents = fromEstimate ? annualCostWithoutBills(row) : ((await deps.annualCost?.(ownerId, row.id))?.cents ?? null);
  return presentProperty(row, energyPctOfNoi(annualCents, row.noi));
}

async function requestAnalysis(deps: PropertyServiceDeps, row: PropertyRow): Promise<void> {
  if (row.tariffId === null && row.monthlyUsageKwh === null) return;
  try {
    await deps.requestAnalysis(row.id, String(row.updatedAt.getTime()));
  } catch (err) {
    // The change is saved; the stored analysis is only stale until the next change or re-import.
    deps.logger.warn({ err, propertyId: row.id }, 'could not queue rate analysis');
  }
}

/** GET /pm/properties/{id}: the property with its annual cost and the tariffs it may take. */
async function presentDetail(deps: PropertyServiceDeps, ownerId: string, row: PropertyRow) {
  const [available, annual] = await Promise.all([deps.tariffs.availableTariffs(row), deps.annualCost?.(ownerId, row.id) ?? null]);
  return {
    ...presentProperty(row, energyPctOfNoi(annual?.cents ?? null, row.noi)),
    annual_cost: annual === null ? null : annual.cents / 100,
    annual_cost_basis: annual?.basis ?? null,
    cost_by_utility: annual?.byUtility ?? [],
    available_tariffs: available.map((t) => ({
      id: t.id,
      name: t.name,
      utility_name: t.utilityName,
      rate_type: t.rateType,
      sector: t.sector,
    })),
  };
}

export function createPropertyService(deps: PropertyServiceDeps) {
  const repo = createPropertyRepository(deps.db);
  const meterRepo = createMeterRepository(deps.db);
  const estimates = createEstimates(deps);
  const { requireTariff, pricingTariffs, meterStateProblems } = createTariffChecks(deps, meterRepo);

  const requireOwned = requireOwnedBy(repo.findOwned, 'Property not found');

  return {
    requireOwned,
    requireTariff,

    async create(ownerId: string, input: CreatePropertyInput) {
      checkZipState(input.zip_code, input.state);
      if (input.portfolio_id) await deps.portfolios.requireOwned(ownerId, input.portfolio_id);
      const values = { ...toColumns(input), hasSolar: input.has_solar ?? false } as PropertyValues;
      const { tariff, supply } = await pricingTariffs(ownerId, values, values);
      const row = await repo.insert(ownerId, { ...values, ...estimates.costsFor(values, tariff, supply) }, deps.now());
      await requestAnalysis(deps, row);
      await deps.dataChanged?.(ownerId);
      return present(deps, ownerId, row, true);
    },

    /** A page of the owner's properties (the owner's count is kept by a trigger: no count query without filters). */
    async list(ownerId: string, q: PropertyListQuery) {
      const state = await repo.listState(ownerId);
      const filters = { portfolioId: q.portfolio_id, state: q.state, city: q.city, propertyType: q.property_type };
      const { rows, total } = await repo.list(ownerId, filters, q.per_page, offsetOf(q), state.count);
      return toPage(rows.map(presentListItem), total, q);
    },

    async detail(ownerId: string, id: string) {
      return presentDetail(deps, ownerId, await requireOwned(ownerId, id));
    },

    async update(ownerId: string, id: string, input: UpdatePropertyInput) {
      const row = await requireOwned(ownerId, id);
      const changes = toColumns(input);
      if (changes.portfolioId) await deps.portfolios.requireOwned(ownerId, changes.portfolioId);
      const merged = { ...row, ...changes };
      if ('zipCode' in changes || 'state' in changes) checkZipState(merged.zipCode, merged.state);
      const pricingChanged = PRICING_FIELDS.some((f) => f in changes && changes[f] !== row[f]);
      // A move to another state: every tariff the property or its meters price on must be of the new state.
      const stateChanged = 'state' in changes && changes.state !== row.state;
      if (pricingChanged || stateChanged) {
        // The tariffs the PATCH changes are checked; one it repeats as stored is left as it is.
        const newTariffs = Object.fromEntries(
          (['tariffId', 'supplyTariffId'] as const).filter((f) => f in changes && changes[f] !== row[f]).map((f) => [f, changes[f]]),
        );
        const { tariff, supply } = await pricingTariffs(ownerId, merged, newTariffs, stateChanged);
        if (pricingChanged) {
          Object.assign(
            changes,
            merged.tariffId
              ? estimates.costsFor(merged, tariff, supply)
              : await estimates.costsFromMeters(ownerId, merged, await meterRepo.ofProperty(row.id)),
          );
        }
      }
      if (stateChanged) {
        const problems = await meterStateProblems(ownerId, row.id, merged.state);
        if (problems.length > 0) throw validationFailed(problems);
      }
      const updated = await repo.update(row.id, changes, deps.now());
      if (pricingChanged) await requestAnalysis(deps, updated);
      if (['tariffId', 'supplyTariffId', 'supplyRatePerKwh'].some((f) => f in changes)) await deps.pricingChanged?.(row.id);
      await deps.dataChanged?.(ownerId);
      return present(deps, ownerId, updated);
    },

    ...createEstimateWrites(deps, repo, meterRepo, estimates),

    findById: (id: string) => repo.findById(id),
    /** Every property of an owner, whole rows, in one read (the rate-analysis job of an owner). */
    rowsOfOwner: (ownerId: string) => repo.rowsOfOwner(ownerId),
    ownersWithProperties: () => repo.ownersWithProperties(),
  };
}

export type PropertyService = ReturnType<typeof createPropertyService>;
