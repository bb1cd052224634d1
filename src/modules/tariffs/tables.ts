import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { quoted, timestamptz } from '../../platform/db/columns';
import type { StoredStructure } from './stored-structure';
import { CATALOG_SOURCES, RATE_TYPES, SECTORS, type TariffApplicability } from './tariff.model';
import { REFRESH_STATUSES } from './refresh/schemas';
import { SERVICE_TYPES, VOLTAGES } from './tariff-class';

/**
 * Tariffs imported from URDB. Summary columns are indexed for search; the full
 * structure the bill engine prices is kept as jsonb beside them.
 */
export const tariffs = pgTable(
  'tariffs',
  {
    /** URDB label. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** EIA utility id, as text. */
    utilityId: text('utility_id').notNull(),
    utilityName: text('utility_name').notNull(),
    state: text('state'),
    sector: text('sector').notNull(),
    rateType: text('rate_type').notNull(),
    hasTou: boolean('has_tou').notNull(),
    hasDemand: boolean('has_demand').notNull(),
    hasNetMetering: boolean('has_net_metering').notNull(),
    effectiveDate: date('effective_date', { mode: 'string' }),
    expirationDate: date('expiration_date', { mode: 'string' }),
    description: text('description').notNull(),
    eligibility: text('eligibility').notNull(),
    sourceUrl: text('source_url').notNull(),
    lastUpdated: timestamptz('last_updated').notNull(),
    /** The full TariffStructure; rows stored by older versions may differ (read through stored-structure.ts). */
    structure: jsonb('structure').$type<StoredStructure>().notNull(),
    /** Who may take the tariff (TariffApplicability); null in rows stored before it existed, read as "none published". */
    applicability: jsonb('applicability').$type<TariffApplicability>(),
    /** Tariff class (tariff-class.ts); rows stored before the columns existed read as bundled, unknown voltage, general. */
    serviceType: text('service_type').notNull().default('bundled'),
    voltage: text('voltage'),
    purpose: text('purpose').notNull().default('general'),
    classNote: text('class_note'),
    /** The later revision of the same schedule that superseded this tariff (revisions.ts); null when none did. */
    supersededBy: text('superseded_by'),
    /** Where the row came from: the bundled files (`bundled`) or a refresh from the URDB API (`refreshed`, refresh/). */
    source: text('source').notNull().default('bundled'),
    /** When a refresh stored the record (null for bundled rows). */
    sourceUpdatedAt: timestamptz('source_updated_at'),
  },
  // No index on expiration_date: about three quarters of tariffs have none, so it never narrows the
  // default "not expired" condition, and the planner wasted time OR-ing its bitmaps into selective scans.
  (t) => [
    check('tariffs_sector_check', sql`${t.sector} in (${quoted(SECTORS)})`),
    check('tariffs_service_type_check', sql`${t.serviceType} in (${quoted(SERVICE_TYPES)})`),
    check('tariffs_voltage_check', sql`${t.voltage} in (${quoted(VOLTAGES)})`),
    check('tariffs_source_check', sql`${t.source} in (${quoted(CATALOG_SOURCES)})`),
    check('tariffs_rate_type_check', sql`${t.rateType} in (${quoted(RATE_TYPES)})`),
    index('tariffs_utility_id_idx').on(t.utilityId),
    index('tariffs_state_idx').on(t.state),
    index('tariffs_sector_idx').on(t.sector),
    index('tariffs_rate_type_idx').on(t.rateType),
    index('tariffs_has_tou_idx').on(t.hasTou),
    index('tariffs_has_demand_idx').on(t.hasDemand),
    index('tariffs_has_net_metering_idx').on(t.hasNetMetering),
    index('tariffs_order_idx').on(t.utilityName, t.name, t.id),
    index('tariffs_utility_name_trgm_idx').using('gin', sql`${t.utilityName} gin_trgm_ops`),
  ],
);

/**
 * The URDB records a refresh fetched (refresh/), as the API returned them: the importer reads them
 * beside the bundled files, so a re-import of the bundled data keeps what a refresh brought.
 */
export const tariffRefreshedRecords = pgTable(
  'tariff_refreshed_records',
  {
    /** URDB label. */
    label: text('label').primaryKey(),
    /** EIA id of the utility the record was fetched for. */
    eiaId: text('eia_id').notNull(),
    record: jsonb('record').notNull(),
    fetchedAt: timestamptz('fetched_at').notNull(),
  },
  (t) => [index('tariff_refreshed_records_eia_idx').on(t.eiaId)],
);

/** Where a run stands with one utility (tariff_refresh_runs.cursor). */
export interface RefreshCursor {
  offset: number;
  done: boolean;
  modified_after?: number | null;
}

/**
 * A refresh run: which utilities, how far each got (a resumed run starts each utility at its
 * cursor), and the report. One row per `POST /admin/tariffs/refresh` or `npm run data:refresh`.
 */
export const tariffRefreshRuns = pgTable(
  'tariff_refresh_runs',
  {
    id: text('id').primaryKey(),
    status: text('status').notNull(),
    /** EIA ids, in the order they are refreshed. */
    utilities: jsonb('utilities').$type<string[]>().notNull(),
    /**
     * Per EIA id: the offset of the next page to fetch, whether the utility is done, and the API's
     * `modified_after` for it (Unix seconds; null or absent: every record, the utility's first refresh).
     */
    cursor: jsonb('cursor').$type<Record<string, RefreshCursor>>().notNull(),
    /** The oldest `modified_after` of the run's utilities (Unix seconds), or null when any is fetched whole. */
    modifiedAfter: integer('modified_after'),
    report: jsonb('report').notNull(),
    error: text('error'),
    createdAt: timestamptz('created_at').notNull(),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    check('tariff_refresh_runs_status_check', sql`${t.status} in (${quoted(REFRESH_STATUSES)})`),
    index('tariff_refresh_runs_created_idx').on(t.createdAt),
  ],
);
