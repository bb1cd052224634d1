import { stateOfZip } from '../utilities/zip-states';
import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { notFound, unprocessable, validationFailed, type FieldError } from '../../platform/http/errors';
import { offsetOf, toPage } from '../../platform/http/pagination';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import type { TariffCatalog } from './tariff-catalog';
import type { PortfolioService } from '../portfolios/service';
import { energyPctOfNoi, type EnergyCostEstimate, type MonthlyBillTotal } from './energy-cost';
import { annualCostWithoutBills, costsOfEstimate, createEstimates, type CostColumns } from './estimate';
import { createPropertyRepository, type PropertyRow, type PropertyValues } from './repository';
import type { CreatePropertyInput, PropertyListQuery, UpdatePropertyInput } from './schemas';
import { presentListItem, presentProperty } from './presenter';
import { createMeterRepository } from '../meters/public';

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
  monthly_usage_kwh: 'monthlyUsageKwh', monthly_demand_kw: 'monthlyDemandKw', supply_rate_per_kwh: 'supplyRatePerKwh', supply_tariff_id: 'supplyTariffId', has_solar: 'hasSolar', timezone: 'timezone',
  solar_capacity_kw: 'solarCapacityKw', annual_revenue: 'annualRevenue', noi: 'noi',
} as const satisfies Record<keyof UpdatePropertyInput, keyof PropertyValues>;

export type TariffField = 'tariff_id' | 'supply_tariff_id';

/** What a tariff is checked for: its utility type, the field naming it, and the state it must be of (with whose state that is). */
export interface TariffUse {
  utilityType: string;
  field: TariffField;
  /** The state of the property it prices (the meter's property for a meter); absent: not checked. */
  state?: string;
  /** How the message names the state's holder: "the property" (default), "the meter's property". */
  whose?: string;
}

/**
 * A tariff prices properties of its own state only (properties README "A tariff of the property's
 * state"): one of another state (a Georgia Power tariff on a Denver property) is a 422 naming both,
 * e.g. "tariff_id 5ae3acd05457a3a8689b4e70 is a GA tariff (Georgia Power Co); the property is in CO".
 * A tariff without a state (an own tariff whose utility has none on record, a utility only URDB
 * names) fits every state: its utility is the owner's word. Null when it fits.
 */
export function tariffStateProblem(tariff: Pick<Tariff, 'id' | 'state' | 'utilityName'>, field: TariffField, state: string, whose: string): string | null {
  if (tariff.state === null || tariff.state === '' || tariff.state === state) return null;
  const utility = tariff.utilityName ? ` (${tariff.utilityName})` : '';
  return `${field} ${tariff.id} is a ${tariff.state} tariff${utility}; ${whose} is in ${state}`;
}

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
  const meterRepo = createMeterRepository(deps.db);
  const estimates = createEstimates(deps);

  async function requireOwned(ownerId: string, id: string): Promise<PropertyRow> {
    const row = await repo.findOwned(ownerId, id);
    if (!row) throw notFound('Property not found');
    return row;
  }

  /**
   * A tariff the owner may price `field` on: a catalog tariff or their own, of the utility type it
   * is for; tariff_id is a delivery (or bundled) tariff, supply_tariff_id a supply-only one. With
   * `state`, also a tariff of that state (or of none: tariffStateProblem).
   */
  async function requireTariff(
    id: string, ownerId: string, use: TariffUse = { utilityType: 'electric', field: 'tariff_id' },
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
    if (use.state !== undefined) {
      const problem = tariffStateProblem(tariff, use.field, use.state, use.whose ?? 'the property');
      if (problem) throw unprocessable(problem, use.field);
    }
    return tariff;
  }

  /**
   * The property's tariff and supply contract as they price today (null where it has none): those
   * the request sets are checked (of the property's state too); one stored earlier that no longer
   * exists prices nothing. When the request moves the property to another state, a stored tariff
   * of another state is a 422 on `state` (tariffStateProblem).
   */
  async function pricingTariffs(
    ownerId: string, p: Pick<PropertyValues, 'tariffId' | 'supplyTariffId' | 'state'>, given: Partial<PropertyValues>, stateChanged = false,
  ) {
    const load = async (id: string | null | undefined, field: TariffField) => {
      if (!id) return null;
      if ((field === 'tariff_id' ? 'tariffId' : 'supplyTariffId') in given) {
        return requireTariff(id, ownerId, { utilityType: 'electric', field, state: p.state });
      }
      const stored = await deps.tariffs.findTariffById(id, ownerId);
      const problem = stored && stateChanged ? tariffStateProblem(stored, field, p.state, 'the property') : null;
      if (problem) {
        throw unprocessable(`state ${p.state} does not fit the property's ${field}: ${problem}; give a ${p.state} ${field} (or null) in the same PATCH`, 'state');
      }
      return stored;
    };
    return { tariff: await load(p.tariffId, 'tariff_id'), supply: await load(p.supplyTariffId, 'supply_tariff_id') };
  }

  /**
   * The property's meters whose tariffs a move to `state` would put in another state: one error
   * each, on `state`, naming the meter, its tariff and both states.
   */
  async function meterStateProblems(ownerId: string, propertyId: string, state: string): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const m of await meterRepo.ofProperty(propertyId)) {
      for (const [field, id] of [['tariff_id', m.tariffId], ['supply_tariff_id', m.supplyTariffId]] as const) {
        if (!id) continue;
        const tariff = await deps.tariffs.findTariffById(id, ownerId);
        const problem = tariff ? tariffStateProblem(tariff, field, state, 'the property') : null;
        if (problem) {
          errors.push({
            field: 'state',
            message: `state ${state} does not fit meter '${m.name}' (${m.id}): ${problem}; clear or change the meter's ${field} first (PATCH /pm/meters/${m.id})`,
          });
        }
      }
    }
    return errors;
  }

  /**
   * The property as the API shows it: energy_pct_of_noi is its one annual cost (analytics) over
   * its noi. A new property has no bills: its annual cost is the estimate (`fromEstimate`).
   */
  async function present(ownerId: string, row: PropertyRow, fromEstimate = false) {
    if (row.noi === null || row.noi <= 0) return presentProperty(row, null); // no percent to give: nothing to read
    const annualCents = fromEstimate ? annualCostWithoutBills(row) : ((await deps.annualCost?.(ownerId, row.id))?.cents ?? null);
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
      const row = await repo.insert(ownerId, { ...values, ...estimates.costsFor(values, tariff, supply) }, deps.now());
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
      // A move to another state: every tariff the property or its meters price on must be of the new state.
      const stateChanged = 'state' in changes && changes.state !== row.state;
      if (pricingChanged || stateChanged) {
        // The tariffs the PATCH changes are checked; one it repeats as stored is left as it is.
        const newTariffs = Object.fromEntries((['tariffId', 'supplyTariffId'] as const)
          .filter((f) => f in changes && changes[f] !== row[f]).map((f) => [f, changes[f]]));
        const { tariff, supply } = await pricingTariffs(ownerId, merged, newTariffs, stateChanged);
        if (pricingChanged) {
          Object.assign(changes, merged.tariffId
            ? estimates.costsFor(merged, tariff, supply)
            : await estimates.costsFromMeters(ownerId, merged, await meterRepo.ofProperty(row.id)));
        }
      }
      if (stateChanged) {
        const problems = await meterStateProblems(ownerId, row.id, merged.state);
        if (problems.length > 0) throw validationFailed(problems);
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
     * Stores freshly priced estimates (the rate-analysis job prices each property's own tariff once
     * and hands them here): one statement for the rows whose cost columns changed, none when none did.
     * A property without its own tariff is priced here on its electric meters' tariff (estimate.ts).
     */
    async storeEstimates(list: Array<{ row: PropertyRow; estimate: EnergyCostEstimate | null }>): Promise<void> {
      const fromMeters = list.filter(({ row }) => row.tariffId === null && row.monthlyUsageKwh !== null).map(({ row }) => row.id);
      const metersOf = await meterRepo.electricOf(fromMeters);
      const changed: Array<{ id: string } & CostColumns> = [];
      for (const { row, estimate } of list) {
        const costs = row.tariffId === null
          ? await estimates.costsFromMeters(row.ownerId, row, metersOf.get(row.id) ?? [])
          : costsOfEstimate(estimate);
        if ((Object.keys(costs) as Array<keyof CostColumns>).some((k) => costs[k] !== row[k])) changed.push({ id: row.id, ...costs });
      }
      await repo.setCostsMany(changed);
    },

    /**
     * Prices again the estimate of a property without its own tariff after its electric meters'
     * tariffs changed (meter service); stores it, and queues the analytics, when it changed.
     */
    async repriceFromMeters(ownerId: string, propertyId: string): Promise<void> {
      const row = await repo.findOwned(ownerId, propertyId);
      if (!row || row.tariffId !== null) return;
      const costs = await estimates.costsFromMeters(ownerId, row, await meterRepo.ofProperty(row.id));
      if (costs.annualEnergyCost === row.annualEnergyCost && costs.monthlyEnergyCost === row.monthlyEnergyCost) return;
      await repo.setCostsMany([{ id: row.id, ...costs }]);
      await deps.dataChanged?.(ownerId);
    },

    findById: (id: string) => repo.findById(id),
    /** Every property of an owner, whole rows, in one read (the rate-analysis job of an owner). */
    rowsOfOwner: (ownerId: string) => repo.rowsOfOwner(ownerId),
    ownersWithProperties: () => repo.ownersWithProperties(),
  };
}

export type PropertyService = ReturnType<typeof createPropertyService>;
