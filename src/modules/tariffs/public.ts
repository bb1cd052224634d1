/**
 * What other modules may use of tariffs' tables and repository (the lint rule lets them import
 * nothing else of them): the catalog reads that price (a tariff by id, several by id, a row as a
 * Tariff), read-only views of the catalog and of own tariffs' versions, and the row type.
 */
import { getTableColumns } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { tariffs } from './tables';
import { customTariffVersions } from './custom/tables';

export { findRevisionChain, findTariffById, findTariffsByIds, rowToTariff, type TariffRow } from './repository';

/** Every column of the catalog's tariffs, as a subquery named `alias`: read, never written. In raw SQL its columns keep their database names (`t.utility_id`). */
export const viewOfTariffs = <A extends string>(alias: A) => new QueryBuilder().select(getTableColumns(tariffs)).from(tariffs).as(alias);

/** Which own tariff a version is of and when it takes effect, as a subquery named `alias`: read, never written. */
export const viewOfOwnTariffVersions = <A extends string>(alias: A) =>
  new QueryBuilder()
    .select({ tariffId: customTariffVersions.tariffId, effectiveDate: customTariffVersions.effectiveDate })
    .from(customTariffVersions)
    .as(alias);
