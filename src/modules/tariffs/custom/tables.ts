import { sql } from 'drizzle-orm';
import { check, date, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, quoted, timestamptz, updatedAt } from '../../../platform/db/columns';
import { users } from '../../accounts/tables';
import { SECTORS, UTILITY_TYPES, VERSION_SOURCES, type TariffApplicability, type TariffStructure } from '../tariff.model';
import { SERVICE_TYPES } from '../tariff-class';

/**
 * An account's own tariffs (tariffs README "Custom tariffs"): what the tariff is (its utility,
 * sector, utility type and usage unit, its class) here, its rates in `custom_tariff_versions`, one
 * row per effective date. A retired tariff keeps its rows (`retired_at`) but is no longer served.
 */
export const customTariffs = pgTable(
  'custom_tariffs',
  {
    /** "ct_" and 32 hex digits: never a URDB label (24 hex digits), so an id says which table holds it. */
    id: text('id').primaryKey(),
    ownerId: cascadingRef('owner_id', () => users.id),
    name: text('name').notNull(),
    /** EIA id of the utility when it is one (electric utilities); null for a water department or a supplier. */
    utilityId: text('utility_id'),
    utilityName: text('utility_name').notNull(),
    state: text('state'),
    sector: text('sector').notNull(),
    utilityType: text('utility_type').notNull(),
    unit: text('unit').notNull(),
    serviceType: text('service_type').notNull(),
    description: text('description').notNull(),
    sourceUrl: text('source_url').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    retiredAt: timestamptz('retired_at'),
  },
  (t) => [
    index('custom_tariffs_owner_idx').on(t.ownerId, t.createdAt),
    check('custom_tariffs_sector_check', sql`${t.sector} in (${quoted(SECTORS)})`),
    check('custom_tariffs_utility_type_check', sql`${t.utilityType} in (${quoted(UTILITY_TYPES)})`),
    check('custom_tariffs_service_type_check', sql`${t.serviceType} in (${quoted(SERVICE_TYPES)})`),
  ],
);

/** A custom tariff's rates from `effective_date` until the next version's. */
export const customTariffVersions = pgTable(
  'custom_tariff_versions',
  {
    tariffId: cascadingRef('tariff_id', () => customTariffs.id),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    /** The end date a URDB record publishes (its `enddate`); the version also ends where the next begins. */
    expirationDate: date('expiration_date', { mode: 'string' }),
    /** The TariffStructure the bill engine prices. */
    structure: jsonb('structure').$type<TariffStructure>().notNull(),
    applicability: jsonb('applicability').$type<TariffApplicability>().notNull(),
    /** What pricing this version assumes (features of its URDB record the engine does not price, rules applied). */
    assumptions: jsonb('assumptions').$type<string[]>().notNull(),
    /** 'urdb' (a URDB record) or 'rates' (the detail shape). */
    source: text('source').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tariffId, t.effectiveDate] }),
    check('custom_tariff_versions_source_check', sql`${t.source} in (${quoted(VERSION_SOURCES)})`),
  ],
);
