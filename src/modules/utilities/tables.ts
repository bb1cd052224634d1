import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** Electric utilities from EIA-861 (2018), plus the few utilities only the ZIP tables or URDB name. */
export const utilities = pgTable(
  'utilities',
  {
    /** EIA utility id, as text. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Null: EIA-861 publishes no abbreviation, website or phone. */
    abbreviation: text('abbreviation'),
    state: text('state'),
    type: text('type'),
    website: text('website'),
    phone: text('phone'),
    serviceTerritory: text('service_territory'),
    customersServed: integer('customers_served'),
    zipCodesServed: integer('zip_codes_served').notNull().default(0),
    tariffCount: integer('tariff_count').notNull().default(0),
  },
  (t) => [
    index('utilities_state_idx').on(t.state),
    index('utilities_order_idx').on(t.name, t.id),
    index('utilities_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

/** ZIP code to serving utility, from the OpenEI look-up tables. */
export const utilityZipCodes = pgTable(
  'utility_zip_codes',
  {
    zipCode: text('zip_code').notNull(),
    utilityId: text('utility_id').notNull(),
    /** Which OpenEI table listed the pair: a key of ZIP_TABLES (`non_iou_2023`, `iou_2011`; the first wins when both do). */
    source: text('source').notNull(),
  },
  (t) => [primaryKey({ columns: [t.zipCode, t.utilityId] }), index('utility_zip_codes_utility_id_idx').on(t.utilityId)],
);
