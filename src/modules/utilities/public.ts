/**
 * What other modules may use of utilities' tables and repository (the lint rule lets them import
 * nothing else of them): read-only views of the utilities and of which utility serves which ZIP
 * code, and the writes of a reference-data import (tariffs' importer stores the utilities with the
 * catalog, in its transaction).
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { utilities, utilityZipCodes } from './tables';

export {
  analyzeUtilities,
  deleteUtilitiesAndZipPairs,
  insertZipPairs,
  readZipPairs,
  refreshUtilityCounts,
  upsertUtilities,
} from './repository';

/** A utility's id, name and main state, as a subquery named `alias`: read, never written. */
export const viewOfUtilities = <A extends string>(alias: A) =>
  new QueryBuilder().select({ id: utilities.id, name: utilities.name, state: utilities.state }).from(utilities).as(alias);

/** The ZIP code and utility pairs, as a subquery: read, never written. */
export const utilityZipView = new QueryBuilder()
  .select({ zipCode: utilityZipCodes.zipCode, utilityId: utilityZipCodes.utilityId })
  .from(utilityZipCodes)
  .as('utility_zip_view');

/** Every utility's EIA id, as a subquery (the catalog refresh of all utilities): read, never written. */
export const utilityIdsView = new QueryBuilder().select({ id: utilities.id }).from(utilities).as('utility_ids_view');
