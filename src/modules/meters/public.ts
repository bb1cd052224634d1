/**
 * What other modules may use of meters' tables and repository (the lint rule lets them import
 * nothing else of them): the repository, which properties uses to read a property's meters, and a
 * read-only view of the table.
 */
import { getTableColumns } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { meters } from './tables';

export { createMeterRepository, type MeterRow } from './repository';

/** Every column of the meters, as a subquery named `alias`: read, never written. In raw SQL its columns keep their database names (`m.tariff_id`). */
export const viewOfMeters = <A extends string>(alias: A) => new QueryBuilder().select(getTableColumns(meters)).from(meters).as(alias);

/** Each meter's tariff (the catalog refresh reads which utilities the deployment uses): read, never written. */
export const meterTariffsView = new QueryBuilder().select({ tariffId: meters.tariffId }).from(meters).as('meter_tariffs_view');

/** The energy of each local day of a period on a property's whole-building electric meters (tenant billing's RUBS electric split). */
export { wholeBuildingDailyEnergy, type MeterDailyEnergy, type PeriodEnergy, type PropertyClock } from './intervals/daily';
/** The longest range of interval readings read at once (days). */
export { MAX_RANGE_DAYS as MAX_INTERVAL_RANGE_DAYS } from './intervals/service';
/** A meter's interval readings over billing periods (issue 50 item 3: the audit and rate analysis price bills from them). */
export {
  createIntervalReader,
  periodIntervals,
  periodKey,
  type IntervalReader,
  type PeriodIntervals,
  type CoveredPeriod,
} from './intervals/period-intervals';
