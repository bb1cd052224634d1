/**
 * What other modules may use of properties (the lint rule lets them import nothing else of its
 * tables or repository): a read-only view of the table to join on, and the row type.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { properties } from './tables';

export type { PropertyRow } from './repository';

/**
 * The property columns other modules read (whose it is, where it is, what it is, its portfolio and
 * size) as a subquery named `alias`: a join on it reads the properties table and can never write
 * it. In raw SQL its columns keep their database names (`p.owner_id`).
 */
export const viewOfProperties = <A extends string>(alias: A) => new QueryBuilder()
  .select({
    id: properties.id,
    ownerId: properties.ownerId,
    portfolioId: properties.portfolioId,
    name: properties.name,
    address: properties.address,
    city: properties.city,
    state: properties.state,
    zipCode: properties.zipCode,
    propertyType: properties.propertyType,
    sqft: properties.sqft,
    unitCount: properties.unitCount,
  })
  .from(properties)
  .as(alias);

export const propertyView = viewOfProperties('property_view');
