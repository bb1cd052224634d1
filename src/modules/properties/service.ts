import { stateOfZip } from '../utilities/zip-states';
import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { notFound, unprocessable } from '../../platform/http/errors';
import { offsetOf, toPage } from '../../platform/http/pagination';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import type { TariffCatalog } from './tariff-catalog';
import type { PortfolioService } from '../portfolios/service';
import { energyPctOfNoi, estimateEnergyCost, type EnergyCostEstimate, type MonthlyBillTotal } from './energy-cost';
import { createPropertyRepository, type PropertyRow, type PropertyValues } from './repository';
import type { CreatePropertyInput, PropertyListQuery, UpdatePropertyInput } from './schemas';
import { presentListItem, presentProperty } from './presenter';

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
  name: 'name', address: 'address', city: 'city', state: 'state', zip_code: 'zipCode', property_type: 'propertyType',
  sqft: 'sqft', unit_count: 'unitCount', year_built: 'yearBuilt', portfolio_id: 'portfolioId',
  utility_account_number: 'utilityAccountNumber', meter_number: 'meterNumber', tariff_id: 'tariffId',
  monthly_usage_kwh: 'monthlyUsageKwh', monthly_demand_kw: 'monthlyDemandKw', supply_rate_per_kwh: 'supplyRatePerKwh', supply_tariff_id: 'supplyTariffId', has_solar: 'hasSolar',
  solar_capacity_kw: 'solarCapacityKw', annual_revenue: 'annualRevenue', noi: 'noi',
} as const satisfies Record<keyof UpdatePropertyInput, keyof PropertyValues>;

type CostColumns = Pick<PropertyValues, 'monthlyEnergyCost' | 'annualEnergyCost'>;

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


export function createPropertyService(deps: PropertyServiceDeps) {
  const repo = createPropertyRepository(deps.db);

  async function requireOwned(ownerId: string, id: string): Promise<PropertyRow> {
    const row = await repo.findOwned(ownerId, id);
    if (!row) throw notFound('Property not found');
    return row;
  }

  /**
   * A tariff the owner may price `field` on: a catalog tariff or their own, of the utility type it
   * is for; tariff_id is a delivery (or bundled) tariff, supply_tariff_id a supply-only one.
   */
  async function requireTariff(
    id: string, ownerId: string, use: { utilityType: string; field: 'tariff_id' | 'supply_tariff_id' } = { utilityType: 'electric', field: 'tariff_id' },
  ): Promise<Tariff> {
    const tariff = await deps.tariffs.findTariffById(id, ownerId);
    if (!tariff) throw unprocessable('Tariff not found', use.field);
    const type = usageOf(tariff).utilityType;
    if (type !== use.utilityType) {
      throw unprocessable(`${use.field} must be ${/^[aeiou]/.test(use.utilityType) ? 'an' : 'a'} ${use.utilityType} tariff: ${id} prices ${type}`, use.field);
    }
    if (use.field === 'supply_tariff_id' && tariff.serviceType !== 'supply_only') {
      throw unprocessable(`supply_tariff_id must name a supply-only tariff: ${id} is ${tariff.serviceType}`, use.field);
    }
    if (use.field === 'tariff_id' && tariff.serviceType === 'supply_only') {
      throw unprocessable(`tariff_id is the utility's tariff: ${id} is supply only (give it as supply_tariff_id)`, use.field);
    }
    return tariff;
  }

  /**
   * The property's tariff and supply contract as they price today (null where it has none): those
   * the request sets are checked; one stored earlier that no longer exists prices nothing.
   */
  async function pricingTariffs(ownerId: string, p: Pick<PropertyValues, 'tariffId' | 'supplyTariffId'>, given: Partial<PropertyValues>) {
    const load = (id: string | null | undefined, field: 'tariff_id' | 'supply_tariff_id') => {
      if (!id) return null;
      return (field === 'tariff_id' ? 'tariffId' : 'supplyTariffId') in given
        ? requireTariff(id, ownerId, { utilityType: 'electric', field })
        : deps.tariffs.findTariffById(id, ownerId);
    };
    return { tariff: await load(p.tariffId, 'tariff_id'), supply: await load(p.supplyTariffId, 'supply_tariff_id') };
  }

  /** Cost columns for a property's (new) state: the engine's estimate (the electric annual cost without a year of bills). */
  function costsFor(
    p: Pick<PropertyValues, 'monthlyUsageKwh' | 'monthlyDemandKw' | 'supplyRatePerKwh'>, tariff: Tariff | null, supply: Tariff | null,
  ): CostColumns {
    const usage = p.monthlyUsageKwh ?? null;
    const estimate = tariff && usage !== null
      ? estimateEnergyCost(deps.monthlyBill, tariff, usage, p.monthlyDemandKw ?? null, p.supplyRatePerKwh ?? null, supply)
      : null;
    return costsOfEstimate(estimate);
  }

  function costsOfEstimate(estimate: EnergyCostEstimate | null): CostColumns {
    return {
      monthlyEnergyCost: estimate ? estimate.monthlyCents / 100 : null,
      annualEnergyCost: estimate ? estimate.annualCents / 100 : null,
    };
  }

  /**
   * The property as the API shows it: energy_pct_of_noi is its one annual cost (analytics) over
   * its noi. A new property has no bills: its annual cost is the estimate (`fromEstimate`).
   */
  async function present(ownerId: string, row: PropertyRow, fromEstimate = false) {
    if (row.noi === null || row.noi <= 0) return presentProperty(row, null); // no percent to give: nothing to read
    const annualCents = fromEstimate
      ? (row.annualEnergyCost === null ? null : Math.round(row.annualEnergyCost * 100))
      : ((await deps.annualCost?.(ownerId, row.id))?.cents ?? null);
    return presentProperty(row, energyPctOfNoi(annualCents, row.noi));
  }

  async function requestAnalysis(row: PropertyRow): Promise<void> {
    if (row.tariffId === null && row.monthlyUsageKwh === null) return;
    try {
      await deps.requestAnalysis(row.id, String(row.updatedAt.getTime()));
    } catch (err) {
      // The change is saved; the stored analysis is only stale until the next change or re-import.
      deps.logger.warn({ err, propertyId: row.id }, 'could not queue rate analysis');
    }
  }

  /** A known ZIP code fixes the state (data/reference/README.md, "ZIP codes and states"); an unknown one is accepted as sent. */
  function checkZipState(zipCode: string, state: string): void {
    const zipState = stateOfZip(zipCode);
    if (zipState !== null && zipState !== state) {
      throw unprocessable(`zip_code ${zipCode} is in ${zipState}, not ${state}`, 'zip_code');
    }
  }

  return {
    requireOwned,
    requireTariff,

    async create(ownerId: string, input: CreatePropertyInput) {
      checkZipState(input.zip_code, input.state);
      if (input.portfolio_id) await deps.portfolios.requireOwned(ownerId, input.portfolio_id);
      const values = { ...toColumns(input), hasSolar: input.has_solar ?? false } as PropertyValues;
      const { tariff, supply } = await pricingTariffs(ownerId, values, values);
      const row = await repo.insert(ownerId, { ...values, ...costsFor(values, tariff, supply) }, deps.now());
      await requestAnalysis(row);
      await deps.dataChanged?.(ownerId);
      return present(ownerId, row, true);
    },

    /** A page of the owner's properties (the owner's count is kept by a trigger: no count query without filters). */
    async list(ownerId: string, q: PropertyListQuery) {
      const state = await repo.listState(ownerId);
      const filters = { portfolioId: q.portfolio_id, state: q.state, city: q.city, propertyType: q.property_type };
      const { rows, total } = await repo.list(ownerId, filters, q.per_page, offsetOf(q), state.count);
      return toPage(rows.map(presentListItem), total, q);
    },

    async detail(ownerId: string, id: string) {
      const row = await requireOwned(ownerId, id);
      const [available, annual] = await Promise.all([deps.tariffs.availableTariffs(row), deps.annualCost?.(ownerId, row.id) ?? null]);
      return {
        ...presentProperty(row, energyPctOfNoi(annual?.cents ?? null, row.noi)),
        annual_cost: annual === null ? null : annual.cents / 100,
        annual_cost_basis: annual?.basis ?? null,
        cost_by_utility: annual?.byUtility ?? [],
        available_tariffs: available.map((t) => ({
          id: t.id, name: t.name, utility_name: t.utilityName, rate_type: t.rateType, sector: t.sector,
        })),
      };
    },

    async update(ownerId: string, id: string, input: UpdatePropertyInput) {
      const row = await requireOwned(ownerId, id);
      const changes = toColumns(input);
      if (changes.portfolioId) await deps.portfolios.requireOwned(ownerId, changes.portfolioId);
      const merged = { ...row, ...changes };
      if ('zipCode' in changes || 'state' in changes) checkZipState(merged.zipCode, merged.state);
      const pricingChanged = PRICING_FIELDS.some((f) => f in changes && changes[f] !== row[f]);
      if (pricingChanged) {
        const { tariff, supply } = await pricingTariffs(ownerId, merged, changes);
        Object.assign(changes, costsFor(merged, tariff, supply));
      }
      const updated = await repo.update(row.id, changes, deps.now());
      if (pricingChanged) await requestAnalysis(updated);
      if (['tariffId', 'supplyTariffId', 'supplyRatePerKwh'].some((f) => f in changes)) await deps.pricingChanged?.(row.id);
      await deps.dataChanged?.(ownerId);
      return present(ownerId, updated);
    },

    /** The row with the cost columns of a freshly priced estimate on its current tariff (nothing stored). */
    withEstimate: (row: PropertyRow, estimate: EnergyCostEstimate | null): PropertyRow => ({ ...row, ...costsOfEstimate(estimate) }),

    /**
     * Stores freshly priced estimates (the rate-analysis job prices each current tariff once and
     * hands them here): one statement for the rows whose cost columns changed, none when none did.
     */
    async storeEstimates(list: Array<{ row: PropertyRow; estimate: EnergyCostEstimate | null }>): Promise<void> {
      const changed = list.flatMap(({ row, estimate }) => {
        const costs = costsOfEstimate(estimate);
        return (Object.keys(costs) as Array<keyof CostColumns>).some((k) => costs[k] !== row[k]) ? [{ id: row.id, ...costs }] : [];
      });
      await repo.setCostsMany(changed);
    },

    findById: (id: string) => repo.findById(id),
    /** Every property of an owner, whole rows, in one read (the rate-analysis job of an owner). */
    rowsOfOwner: (ownerId: string) => repo.rowsOfOwner(ownerId),
    ownersWithProperties: () => repo.ownersWithProperties(),
  };
}

export type PropertyService = ReturnType<typeof createPropertyService>;
