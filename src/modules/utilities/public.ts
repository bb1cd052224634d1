/**
 * What other modules may use of utilities' tables (the lint rule lets them import nothing else of
 * its tables or repository): a read-only view of which utility serves which ZIP code.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { utilityZipCodes } from './tables';

/** The ZIP code and utility pairs, as a subquery: read, never written. */
export const utilityZipView = new QueryBuilder()
  .select({ zipCode: utilityZipCodes.zipCode, utilityId: utilityZipCodes.utilityId })
  .from(utilityZipCodes)
  .as('utility_zip_view');
