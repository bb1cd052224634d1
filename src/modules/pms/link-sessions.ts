import crypto from 'node:crypto';
import { and, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pmsLinkSessions } from './tables';

/** How long a link session's token may be completed at the provider and then used to bind. */
export const LINK_SESSION_TTL_MS = 60 * 60 * 1000;

export type LinkSessionRow = typeof pmsLinkSessions.$inferSelect;

/** A new link token: 256 random bits, shown once; only its hash is stored. */
export const newLinkToken = (): string => `pmslink_${crypto.randomBytes(32).toString('base64url')}`;

export const hashLinkToken = (token: string): string => crypto.createHash('sha256').update(token, 'utf8').digest('hex');

export function createLinkSessionRepository(db: Executor) {
  return {
    async create(ownerId: string, tokenHash: string, now: Date, expiresAt: Date): Promise<LinkSessionRow> {
      const [row] = await db.insert(pmsLinkSessions).values({ ownerId, tokenHash, createdAt: now, expiresAt }).returning();
      return row!;
    },

    /** Drops the account's expired sessions (they can prove nothing any more). */
    async deleteExpired(ownerId: string, now: Date): Promise<void> {
      await db.delete(pmsLinkSessions).where(and(eq(pmsLinkSessions.ownerId, ownerId), lte(pmsLinkSessions.expiresAt, now)));
    },

    /**
     * Locks the session of `ownerId` whose token hashes to `tokenHash`, if it may bind `connectionId`:
     * not expired, and not used for another connection. Null otherwise.
     */
    async lockUsable(ownerId: string, tokenHash: string, connectionId: string, now: Date): Promise<LinkSessionRow | null> {
      const [row] = await db
        .select()
        .from(pmsLinkSessions)
        .where(
          and(
            eq(pmsLinkSessions.tokenHash, tokenHash),
            eq(pmsLinkSessions.ownerId, ownerId),
            gt(pmsLinkSessions.expiresAt, now),
            or(isNull(pmsLinkSessions.connectionId), eq(pmsLinkSessions.connectionId, connectionId)),
          ),
        )
        .for('update');
      return row ?? null;
    },

    /** The session bound `connectionId`: from now on it proves that connection only. */
    async markUsed(id: string, connectionId: string, now: Date): Promise<void> {
      await db
        .update(pmsLinkSessions)
        .set({ usedAt: now, connectionId })
        .where(and(eq(pmsLinkSessions.id, id), isNull(pmsLinkSessions.usedAt)));
    },
  };
}
