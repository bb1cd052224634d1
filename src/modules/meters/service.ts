import type { Db } from '../../platform/db/client';
import { notFound, unprocessable } from '../../platform/http/errors';
import { requireOwnedBy } from '../../platform/http/owned';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import type { PropertyService } from '../properties/service';
import { createMeterRepository, defaultMeterName, type MeterChanges, type MeterRow } from './repository';
import type { CreateMeterInput, UpdateMeterInput } from './schemas';
import type { MeterCovers } from './tables';
import { defaultUnit, FUEL_OIL_NOT_TARIFFED, isFuelOil, unitProblem, type MeterUtilityType } from './units';

export function presentMeter(m: MeterRow) {
  return {
    id: m.id,
    property_id: m.propertyId,
    utility_type: m.utilityType as MeterUtilityType,
    unit: m.unit,
    name: m.name,
    account_number: m.accountNumber,
    meter_number: m.meterNumber,
    tariff_id: m.tariffId,
    supply_tariff_id: m.supplyTariffId,
    is_active: m.isActive,
    covers: m.covers as MeterCovers,
    is_default: m.isDefault,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

export interface MeterServiceDeps {
  db: Db;
  properties: Pick<PropertyService, 'requireOwned' | 'requireTariff' | 'repriceFromMeters'>;
  /** Queues the owner's analytics recompute after a write (never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** Queues the audit of these meters' bills after what prices them changed (never throws). */
  auditMeters?(meterIds: readonly string[]): Promise<void>;
  /** Marks the property's analytics for a recompute (what a meter covers decides its benchmarks). */
  coverageChanged?(ownerId: string, propertyId: string): Promise<void>;
}

function checkUnit(type: MeterUtilityType, unit: string): void {
  const problem = unitProblem(type, unit);
  if (problem) throw unprocessable(problem, 'unit');
}

/** The columns a PATCH sets: the fields it sends. */
function changesOf(input: UpdateMeterInput): MeterChanges {
  const changes: MeterChanges = {};
  if (input.unit !== undefined) changes.unit = input.unit;
  if (input.name !== undefined) changes.name = input.name;
  if (input.account_number !== undefined) changes.accountNumber = input.account_number;
  if (input.meter_number !== undefined) changes.meterNumber = input.meter_number;
  if (input.tariff_id !== undefined) changes.tariffId = input.tariff_id;
  if (input.supply_tariff_id !== undefined) changes.supplyTariffId = input.supply_tariff_id;
  if (input.is_active !== undefined) changes.isActive = input.is_active;
  if (input.covers !== undefined) changes.covers = input.covers;
  return changes;
}

/**
 * The tariffs a meter is given: the owner's or the catalog's, of the meter's utility type and of
 * its property's state (properties' rules).
 */
async function checkTariffs(
  properties: MeterServiceDeps['properties'],
  ownerId: string,
  type: MeterUtilityType,
  state: string,
  input: { tariff_id?: string | null; supply_tariff_id?: string | null },
) {
  const use = { utilityType: type, state, whose: "the meter's property" };
  if (isFuelOil(type)) {
    if (input.tariff_id) throw unprocessable(`a ${type} meter takes no tariff: ${FUEL_OIL_NOT_TARIFFED}`, 'tariff_id');
    if (input.supply_tariff_id) throw unprocessable(`a ${type} meter takes no tariff: ${FUEL_OIL_NOT_TARIFFED}`, 'supply_tariff_id');
  }
  if (input.tariff_id) await properties.requireTariff(input.tariff_id, ownerId, { ...use, field: 'tariff_id' });
  if (input.supply_tariff_id) await properties.requireTariff(input.supply_tariff_id, ownerId, { ...use, field: 'supply_tariff_id' });
}

export function createMeterService(deps: MeterServiceDeps) {
  const repo = createMeterRepository(deps.db);

  const requireOwned = requireOwnedBy(repo.findOwned, 'Meter not found');

  return {
    requireOwned,

    async create(ownerId: string, propertyId: string, input: CreateMeterInput) {
      const property = await deps.properties.requireOwned(ownerId, propertyId);
      const unit = input.unit ?? defaultUnit(input.utility_type);
      checkUnit(input.utility_type, unit);
      await checkTariffs(deps.properties, ownerId, input.utility_type, property.state, input);
      const row = await repo.insert(propertyId, {
        utilityType: input.utility_type,
        unit,
        name: input.name ?? defaultMeterName(input.utility_type),
        accountNumber: input.account_number ?? null,
        meterNumber: input.meter_number ?? null,
        tariffId: input.tariff_id ?? null,
        supplyTariffId: input.supply_tariff_id ?? null,
        isActive: input.is_active ?? true,
        covers: input.covers ?? 'whole_building',
      });
      // An electric meter's tariff prices the estimate of a property without its own (properties/estimate.ts).
      if (row.utilityType === 'electric' && row.tariffId !== null) await deps.properties.repriceFromMeters(ownerId, propertyId);
      return presentMeter(row);
    },

    async list(ownerId: string, propertyId: string, q: PageQuery) {
      await deps.properties.requireOwned(ownerId, propertyId);
      const { rows, total } = await repo.list(propertyId, q.per_page, offsetOf(q));
      return toPage(rows.map(presentMeter), total, q);
    },

    async update(ownerId: string, meterId: string, input: UpdateMeterInput) {
      const meter = await requireOwned(ownerId, meterId);
      const type = meter.utilityType as MeterUtilityType;
      if (input.utility_type !== undefined && input.utility_type !== type) {
        throw unprocessable(`utility_type of a meter cannot change (this one is ${type}): add a meter of the new type`, 'utility_type');
      }
      if (input.unit !== undefined) checkUnit(type, input.unit);
      // The tariffs it changes (one stored earlier and sent again is left as it is, as on properties).
      const newTariffs = {
        tariff_id: input.tariff_id !== meter.tariffId ? input.tariff_id : undefined,
        supply_tariff_id: input.supply_tariff_id !== meter.supplyTariffId ? input.supply_tariff_id : undefined,
      };
      if (newTariffs.tariff_id || newTariffs.supply_tariff_id) {
        const property = await deps.properties.requireOwned(ownerId, meter.propertyId);
        await checkTariffs(deps.properties, ownerId, type, property.state, newTariffs);
      }
      const changes = changesOf(input);
      const row = Object.keys(changes).length === 0 ? meter : await repo.update(meterId, changes);
      if (input.covers !== undefined && input.covers !== meter.covers) await deps.coverageChanged?.(ownerId, meter.propertyId);
      // A meter's tariff prices its bills (audit, annual estimates): analytics may change with it.
      if (input.tariff_id !== undefined || input.supply_tariff_id !== undefined) {
        await deps.dataChanged?.(ownerId);
        await deps.auditMeters?.([meterId]);
      }
      if (type === 'electric' && (input.tariff_id !== undefined || input.supply_tariff_id !== undefined || input.is_active !== undefined)) {
        await deps.properties.repriceFromMeters(ownerId, meter.propertyId);
      }
      return presentMeter(row);
    },

    /**
     * The meter a new bill of the property goes to: the one it names (404 when it is not the
     * property's; 422 when utility_type contradicts it), else the property's default meter of
     * the bill's utility type, created on first use.
     */
    async meterForBill(propertyId: string, utilityType: MeterUtilityType | undefined, meterId: string | undefined): Promise<MeterRow> {
      if (meterId !== undefined) {
        const meter = await repo.findOfProperty(propertyId, meterId);
        if (!meter) throw notFound('Meter not found');
        if (utilityType !== undefined && utilityType !== meter.utilityType) {
          throw unprocessable(`utility_type must be the meter's (${meter.utilityType})`, 'utility_type');
        }
        return meter;
      }
      if (utilityType === undefined) throw unprocessable('field required', 'utility_type');
      return repo.defaultMeter(propertyId, utilityType);
    },

    /** The property's meters, for an import that names them by id or account number. */
    metersOf: (propertyId: string) => repo.ofProperty(propertyId),
    defaultMeter: (propertyId: string, type: MeterUtilityType) => repo.defaultMeter(propertyId, type),
  };
}

export type MeterService = ReturnType<typeof createMeterService>;
