import type { Db } from '../../platform/db/client';
import { utcDay } from '../../platform/dates';
import { conflict, unprocessable } from '../../platform/http/errors';
import { periodProblem } from './bill-rules';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import type { PropertyService } from '../properties/service';
import { importBillsCsv, type ImportResult, type Upload } from './csv-import';
import { createBillRepository, type BillRow } from './repository';
import type { CreateBillInput } from './schemas';
import type { UtilityType } from './utility-types';

function present(b: BillRow) {
  return {
    id: b.id,
    property_id: b.propertyId,
    utility_type: b.utilityType as UtilityType,
    period_start: b.periodStart,
    period_end: b.periodEnd,
    amount: b.amount,
    usage_kwh: b.usageKwh,
    demand_kw: b.demandKw,
    created_at: b.createdAt.toISOString(),
  };
}

export function createBillService(deps: {
  db: Db;
  now: () => Date;
  properties: Pick<PropertyService, 'requireOwned'>;
  /** Queues the owner's analytics recompute after a write (never throws). */
  dataChanged?(ownerId: string): Promise<void>;
}) {
  const repo = createBillRepository(deps.db);

  return {
    async create(ownerId: string, propertyId: string, input: CreateBillInput) {
      const problem = periodProblem(input.period_start, input.period_end, utcDay(deps.now()));
      if (problem) throw unprocessable(problem.message, problem.field);
      await deps.properties.requireOwned(ownerId, propertyId);
      const row = await repo.insertOne(propertyId, {
        utility_type: input.utility_type,
        period_start: input.period_start,
        period_end: input.period_end,
        amount: input.amount,
        usage_kwh: input.usage_kwh ?? null,
        demand_kw: input.demand_kw ?? null,
      });
      if (!row) throw conflict('A bill for this utility_type and period already exists');
      await deps.dataChanged?.(ownerId);
      return present(row);
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
      // One recompute per import, also when it stopped part-way (the stored batches stay).
      try {
        return await importBillsCsv(upload, (rows) => repo.insertBatch(propertyId, rows), { today: utcDay(deps.now()) });
      } finally {
        await deps.dataChanged?.(ownerId);
      }
    },
  };
}

export type BillService = ReturnType<typeof createBillService>;
