/**
 * What other modules may use of properties (the lint rule lets them import nothing else of its
 * tables or repository): a read-only view of the table to join on, and the row type.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { listColumns } from './repository';
import { properties } from './tables';

export type { PropertyRow } from './repository';

/**
 * The property columns other modules read (a list item's, whose it is, and what prices it: the
 * audit, rate analysis and analytics read those) as a subquery named `alias`: a join on it reads
 * the properties table and can never write it. In raw SQL its columns keep their database names (`p.owner_id`).
 */
export const viewOfProperties = <A extends string>(alias: A) =>
  new QueryBuilder()
    .select({
      ...listColumns,
      ownerId: properties.ownerId,
      tariffId: properties.tariffId,
      supplyTariffId: properties.supplyTariffId,
      supplyRatePerKwh: properties.supplyRatePerKwh,
      annualEnergyCost: properties.annualEnergyCost,
      // The zone a meter's interval readings are read in (the audit prices a bill from them: audit README "Interval data").
      timezone: properties.timezone,
    })
    .from(properties)
    .as(alias);

export const propertyView = viewOfProperties('property_view');

/** Each property's tariffs and ZIP code (the catalog refresh reads which utilities the deployment uses): read, never written. */
export const propertyTariffsView = new QueryBuilder()
  .select({ tariffId: properties.tariffId, supplyTariffId: properties.supplyTariffId, zipCode: properties.zipCode })
  .from(properties)
  .as('property_tariffs_view');
