import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { apiKeys, users } from './tables';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKeyRow = typeof apiKeys.$inferInsert;

/** True for PostgreSQL's unique_violation (23505), also when drizzle wraps the driver error. */
export async function insertUser(db: Executor, row: NewUserRow): Promise<UserRow> {
  const [inserted] = await db.insert(users).values(row).returning();
  return inserted;
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** `email` must already be lower-cased (that is how it is stored). */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function listUsers(db: Executor, opts: { email?: string; limit: number }): Promise<UserRow[]> {
  const query = db.select().from(users);
  if (opts.email !== undefined) return query.where(eq(users.email, opts.email)).limit(opts.limit);
  return query.orderBy(desc(users.createdAt), desc(users.id)).limit(opts.limit);
}

export async function updateUser(
  db: Executor,
  id: string,
  patch: Partial<Pick<UserRow, 'tier' | 'isActive' | 'lastLogin' | 'tokensValidAfter'>>,
): Promise<UserRow | null> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return findUserById(db, id);
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
  return row ?? null;
}

/** Row lock on the user: serialises "count active keys, then insert" per account. */
export async function lockUser(db: Executor, id: string): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
}

export async function countActiveApiKeys(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.isActive, true)));
  return Number(row?.n ?? 0);
}

export async function insertApiKey(db: Executor, row: NewApiKeyRow): Promise<ApiKeyRow> {
  const [inserted] = await db.insert(apiKeys).values(row).returning();
  return inserted;
}

export async function listApiKeys(db: Executor, userId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findApiKey(db: Executor, userId: string, keyId: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Deactivates a key; a key that is already revoked keeps its first revocation time. */
export async function revokeApiKey(db: Executor, keyId: string, at: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ isActive: false, revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(apiKeys.id, keyId));
}

/** The one query of an API-key request: the key by its hash (unique index) with its owner. */
export async function findApiKeyWithUser(
  db: Executor,
  keyHash: string,
): Promise<{ keyId: string; keyActive: boolean; user: UserRow } | null> {
  const [row] = await db
    .select({ keyId: apiKeys.id, keyActive: apiKeys.isActive, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row ?? null;
}

/** Writes batched last-use times in one statement; never moves a time backwards. */
export async function touchApiKeys(db: Executor, uses: Array<{ id: string; at: Date }>): Promise<void> {
  if (uses.length === 0) return;
  const values = sql.join(
    uses.map((u) => sql`(${u.id}, ${u.at.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${apiKeys} set last_used_at = v.at
    from (values ${values}) as v(id, at)
    where ${apiKeys.id} = v.id and (${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < v.at)`);
}
