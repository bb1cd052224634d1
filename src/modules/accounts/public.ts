/**
 * What other modules may use of accounts' tables (the lint rule lets them import nothing else of
 * its tables or repository): a read-only view of which users exist, and the row lock on a user that
 * serialises an account's "count, then insert" (custom tariffs take it for their limit).
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { users } from './tables';

export { lockUser } from './repository';

/** The users' ids, as a subquery named `alias`: read, never written. */
export const viewOfUsers = <A extends string>(alias: A) => new QueryBuilder().select({ id: users.id }).from(users).as(alias);
