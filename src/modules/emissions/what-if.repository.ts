import { and, asc, gte, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { viewOfBills } from '../bills/public';
import { viewOfMeters } from '../meters/public';
import type { MeterUtilityType } from '../meters/units';

const billsView = viewOfBills('what_if_bills');
const metersView = viewOfMeters('what_if_meters');

export interface WhatIfMeterRow {
  id: string;
  name: string;
  utilityType: MeterUtilityType;
  tariffId: string | null;
  supplyTariffId: string | null;
}

export interface WhatIfBillRow {
  id: string;
  meterId: string;
  utilityType: MeterUtilityType;
  periodStart: string;
  periodEnd: string;
  amount: number;
  usage: number | null;
  unit: string;
  usageKwh: number | null;
  demandKw: number | null;
  heatContent: number | null;
}

/** A property's meters with their tariffs, and its bills with what pricing them takes, through the views other modules publish. */
export function createWhatIfRepository(db: Db) {
  return {
    async meters(propertyId: string): Promise<WhatIfMeterRow[]> {
      const rows = await db
        .select({
          id: metersView.id,
          name: metersView.name,
          utilityType: metersView.utilityType,
          tariffId: metersView.tariffId,
          supplyTariffId: metersView.supplyTariffId,
        })
        .from(metersView)
        .where(inArray(metersView.propertyId, [propertyId]))
        .orderBy(asc(metersView.name), asc(metersView.id));
      return rows.map((r) => ({ ...r, utilityType: r.utilityType as MeterUtilityType }));
    },

    /** The property's bills whose period reaches into `from`..`to` (YYYY-MM-DD, both included), oldest first. */
    async bills(propertyId: string, from: string, to: string): Promise<WhatIfBillRow[]> {
      const rows = await db
        .select({
          id: billsView.id,
          meterId: billsView.meterId,
          utilityType: billsView.utilityType,
          periodStart: billsView.periodStart,
          periodEnd: billsView.periodEnd,
          amount: billsView.amount,
          usage: billsView.usage,
          unit: billsView.unit,
          usageKwh: billsView.usageKwh,
          demandKw: billsView.demandKw,
          heatContent: billsView.heatContent,
        })
        .from(billsView)
        .where(and(inArray(billsView.propertyId, [propertyId]), lte(billsView.periodStart, to), gte(billsView.periodEnd, from)))
        .orderBy(asc(billsView.periodStart), asc(billsView.id));
      return rows.map((r) => ({
        ...r,
        utilityType: r.utilityType as MeterUtilityType,
        amount: Number(r.amount),
        usage: r.usage === null ? null : Number(r.usage),
        usageKwh: r.usageKwh === null ? null : Number(r.usageKwh),
        demandKw: r.demandKw === null ? null : Number(r.demandKw),
        heatContent: r.heatContent === null ? null : Number(r.heatContent),
      }));
    },
  };
}
