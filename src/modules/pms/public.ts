/**
 * What other modules may use of the PMS integration's tables (the lint rule lets them import
 * nothing else of its tables or repository): a read-only view of the imported units.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { pmsUnits } from './tables';

/** An imported unit's local id, its PMS id and its property, as a subquery: read, never written. */
export const pmsUnitView = new QueryBuilder()
  .select({ id: pmsUnits.id, propertyId: pmsUnits.propertyId, pmsUnitId: pmsUnits.pmsUnitId })
  .from(pmsUnits)
  .as('pms_unit_view');
