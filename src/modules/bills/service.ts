import type { Db } from '../../platform/db/client';
import { utcDay } from '../../platform/dates';
import { fromCents, toCents } from '../../platform/money';
import { conflict, unprocessable } from '../../platform/http/errors';
import { billUsage, isBillProblem, periodProblem } from './bill-rules';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import type { PropertyService } from '../properties/service';
import type { MeterService } from '../meters/service';
import { defaultUnit, type MeterUtilityType } from '../meters/units';
import { importBillsCsv, type ImportResult, type Upload } from './csv-import';
import { createImportMeters } from './import-meters';
import { createBillRepository, type BillRow, type OverlappingBill } from './repository';
import type { CreateBillInput } from './schemas';

function present(b: BillRow) {
  return {
    id: b.id,
    property_id: b.propertyId,
    meter_id: b.meterId,
    utility_type: b.utilityType as MeterUtilityType,
    period_start: b.periodStart,
    period_end: b.periodEnd,
    amount: b.amount,
    usage: b.usage,
    unit: b.unit,
    usage_kwh: b.usageKwh,
    demand_kw: b.demandKw,
    is_estimated: b.isEstimated,
    heat_content: b.heatContent,
    line_items: b.lineItems,
    created_at: b.createdAt.toISOString(),
  };
}

/** The 409 of a bill whose meter already has a bill overlapping its period. */
export function overlapMessage(other: OverlappingBill): string {
  return `This meter already has a bill overlapping this period: ${other.id} (${other.period_start} to ${other.period_end})`;
}

export function createBillService(deps: {
  db: Db;
  now: () => Date;
  properties: Pick<PropertyService, 'requireOwned'>;
  meters: Pick<MeterService, 'meterForBill' | 'metersOf' | 'defaultMeter'>;
  /** Queues the owner's analytics recompute after a write (never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** Queues the audit of these meters' bills after a write (never throws). */
  auditMeters?(meterIds: readonly string[]): Promise<void>;
}) {
  const repo = createBillRepository(deps.db);

  return {
    async create(ownerId: string, propertyId: string, input: CreateBillInput) {
      const problem = periodProblem(input.period_start, input.period_end, utcDay(deps.now()));
      if (problem) throw unprocessable(problem.message, problem.field);
      if (input.line_items) {
        const cents = input.line_items.reduce((sum, l) => sum + toCents(l.amount), 0);
        if (cents !== toCents(input.amount)) {
          throw unprocessable(`line_items add up to ${fromCents(cents)}, not the bill's amount ${input.amount}`, 'line_items');
        }
      }
      await deps.properties.requireOwned(ownerId, propertyId);
      // Checked before a default meter is created for the bill, so a refused bill leaves nothing behind
      // (whether the usage fits depends on the utility type only, not on which meter of it).
      if (input.utility_type !== undefined) {
        const early = billUsage(input.utility_type, defaultUnit(input.utility_type), input);
        if (isBillProblem(early)) throw unprocessable(early.message, early.field);
      }
      const meter = await deps.meters.meterForBill(propertyId, input.utility_type, input.meter_id);
      const type = meter.utilityType as MeterUtilityType;
      const usage = billUsage(type, meter.unit, input);
      if (isBillProblem(usage)) throw unprocessable(usage.message, usage.field);
      const result = await repo.insertOne(propertyId, {
        meter_id: meter.id,
        utility_type: type,
        period_start: input.period_start,
        period_end: input.period_end,
        amount: input.amount,
        ...usage,
        demand_kw: input.demand_kw ?? null,
        is_estimated: input.is_estimated ?? false,
        line_items: input.line_items ?? null,
      });
      if ('overlaps' in result) throw conflict(overlapMessage(result.overlaps));
      await deps.dataChanged?.(ownerId);
      await deps.auditMeters?.([meter.id]);
      return present(result);
    },

    async list(ownerId: string, propertyId: string, q: PageQuery) {
      await deps.properties.requireOwned(ownerId, propertyId);
      const { rows, total } = await repo.list(propertyId, q.per_page, offsetOf(q));
      return toPage(rows.map(present), total, q);
    },

    async importCsv(ownerId: string, propertyId: string, upload: Upload): Promise<ImportResult> {
      try {
        await deps.properties.requireOwned(ownerId, propertyId);
      } catch (err) {
        upload.body.resume(); // discard the upload so the client can read the error
        throw err;
      }
      const meters = createImportMeters(await deps.meters.metersOf(propertyId), (type) => deps.meters.defaultMeter(propertyId, type));
      // One recompute per import, also when it stopped part-way (the stored batches stay).
      try {
        return await importBillsCsv(
          upload,
          { insertBatch: (rows) => repo.insertBatch(propertyId, rows), meters },
          { today: utcDay(deps.now()) },
        );
      } finally {
        await deps.dataChanged?.(ownerId);
        await deps.auditMeters?.((await deps.meters.metersOf(propertyId)).map((m) => m.id));
      }
    },
  };
}

export type BillService = ReturnType<typeof createBillService>;
