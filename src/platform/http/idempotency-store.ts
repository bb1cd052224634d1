import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/tables';

/** How long a key's first answer is kept and replayed (Stripe's 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key whose first request has not answered after this long is taken as abandoned (its process
 * stopped mid-request) and may be used again: no request of the API takes 10 minutes.
 */
export const ABANDONED_AFTER_MS = 10 * 60 * 1000;

/** Payload of the `idempotency-sweep` queue (hourly): nothing, the sweep deletes what expired by its run. */
export const idempotencySweepPayload = z.object({}).strict();

export interface IdempotencyClaim {
  scope: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  requestId: string;
}

/** The first request's claim (its scope and key are the row's key) or answer, as stored. */
export interface StoredKey extends Omit<IdempotencyClaim, 'scope' | 'key'> {
  /** null while the first request is being acted on. */
  status: number | null;
  body: string | null;
}

export type ClaimResult = { claimed: true; createdAt: Date } | { claimed: false; stored: StoredKey };

export interface IdempotencyStore {
  /**
   * Takes the key for this request (a new key, or one expired or abandoned), or returns what the
   * first request stored. One statement on the primary key: of concurrent requests, one claims.
   */
  claim(claim: IdempotencyClaim): Promise<ClaimResult>;
  /** Keeps the first answer of a claimed key. */
  complete(scope: string, key: string, createdAt: Date, answer: { status: number; body: string | null }): Promise<void>;
  /** Gives a claimed key up (a 5xx, or no answer): the next request with it acts. */
  release(scope: string, key: string, createdAt: Date): Promise<void>;
  /** Deletes the keys older than 24 hours; the number deleted. */
  deleteExpired(): Promise<number>;
}

export function createIdempotencyStore(db: Db, now: () => Date): IdempotencyStore {
  const t = idempotencyKeys;
  const mine = (scope: string, key: string, createdAt: Date) => and(eq(t.scope, scope), eq(t.key, key), eq(t.createdAt, createdAt));

  return {
    async claim(c) {
      // A lost race with a release (deleted between the insert and the read) claims on the next turn.
      for (let attempt = 0; attempt < 3; attempt++) {
        const at = now();
        const expired = new Date(at.getTime() - IDEMPOTENCY_KEY_TTL_MS);
        const abandoned = new Date(at.getTime() - ABANDONED_AFTER_MS);
        const row = { ...c, status: null, body: null, createdAt: at };
        const taken = await db
          .insert(t)
          .values(row)
          .onConflictDoUpdate({
            target: [t.scope, t.key],
            set: {
              method: c.method,
              path: c.path,
              fingerprint: c.fingerprint,
              requestId: c.requestId,
              status: null,
              body: null,
              createdAt: at,
            },
            setWhere: or(lt(t.createdAt, expired), and(isNull(t.status), lt(t.createdAt, abandoned))),
          })
          .returning({ createdAt: t.createdAt });
        if (taken[0]) return { claimed: true, createdAt: taken[0].createdAt };
        const [stored] = await db
          .select({
            method: t.method,
            path: t.path,
            fingerprint: t.fingerprint,
            requestId: t.requestId,
            status: t.status,
            body: t.body,
          })
          .from(t)
          .where(and(eq(t.scope, c.scope), eq(t.key, c.key)));
        if (stored) return { claimed: false, stored };
      }
      throw new Error('idempotency key could not be claimed');
    },

    async complete(scope, key, createdAt, answer) {
      await db
        .update(t)
        .set({ status: answer.status, body: answer.body })
        .where(mine(scope, key, createdAt));
    },

    async release(scope, key, createdAt) {
      await db.delete(t).where(mine(scope, key, createdAt));
    },

    async deleteExpired() {
      const expired = new Date(now().getTime() - IDEMPOTENCY_KEY_TTL_MS);
      const deleted = await db.delete(t).where(lt(t.createdAt, expired)).returning({ key: t.key });
      return deleted.length;
    },
  };
}
