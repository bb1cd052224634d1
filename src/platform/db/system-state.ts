import { eq } from 'drizzle-orm';
import type { Executor } from './client';
import { systemState } from './tables';

/** One system_state row, or null when the key was never written. */
export async function readSystemState(db: Executor, key: string): Promise<{ value: string; updatedAt: Date } | null> {
  const [row] = await db
    .select({ value: systemState.value, updatedAt: systemState.updatedAt })
    .from(systemState)
    .where(eq(systemState.key, key))
    .limit(1);
  return row ?? null;
}

export async function writeSystemState(db: Executor, key: string, value: string, now: Date): Promise<void> {
  await db
    .insert(systemState)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: systemState.key, set: { value, updatedAt: now } });
}
