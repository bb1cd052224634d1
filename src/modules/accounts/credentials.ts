import type { Db } from '../../platform/db/client';
import type { AuthUser, CredentialResolver } from '../../platform/http/auth';
import { hashApiKey, looksLikeApiKey } from './api-key-secret';
import type { KeyUsageRecorder } from './key-usage';
import { toAuthUser } from './presenters';
import * as repo from './repository';
import { TtlCache } from '../../platform/ttl-cache';

/** How long another process may serve a user or key record after it changed (a tier change, a revocation). */
export const AUTH_CACHE_TTL_MS = 5000;
const MAX_CACHED = 10_000;

export interface CredentialStore extends CredentialResolver {
  /** Drops a user's cached record: call after every change to the user. */
  forgetUser(userId: string): void;
  /** Drops a key's cached lookup: call after revoking it. */
  forgetKey(keyHash: string): void;
}

/** A user as the cache keeps it: what `req.user` carries, and since when its bearer tokens count. */
interface UserRecord {
  user: AuthUser;
  /** Epoch milliseconds; tokens issued before are refused. Null: every token of the user counts. */
  tokensValidAfterMs: number | null;
}

const recordOf = (row: repo.UserRow): UserRecord => ({ user: toAuthUser(row), tokensValidAfterMs: row.tokensValidAfter?.getTime() ?? null });

/**
 * Whether a token issued at `issuedAt` (its `iat`, whole Unix seconds) still counts. `iat` drops
 * the milliseconds, so a token of the second of a deactivation reads as issued before it: refused.
 * Login issues tokens no earlier than the next whole second (tokenIssueTime), so they count.
 */
export function tokenCounts(issuedAt: number, tokensValidAfterMs: number | null): boolean {
  return tokensValidAfterMs === null || issuedAt * 1000 >= tokensValidAfterMs;
}

/** When a token issued now must say it was issued: now, or the first whole second at which the user's tokens count. */
export function tokenIssueTime(now: Date, tokensValidAfter: Date | null): Date {
  if (tokensValidAfter === null) return now;
  return new Date(Math.max(now.getTime(), Math.ceil(tokensValidAfter.getTime() / 1000) * 1000));
}

/**
 * Resolves bearer-token subjects and API keys to active users with at most one
 * indexed query per request, and none while the short-lived cache holds the record.
 */
export function createCredentialStore(deps: { db: Db; now: () => Date; usage: KeyUsageRecorder }): CredentialStore {
  const usersById = new TtlCache<UserRecord>(AUTH_CACHE_TTL_MS, MAX_CACHED);
  const keysByHash = new TtlCache<{ keyId: string; userId: string }>(AUTH_CACHE_TTL_MS, MAX_CACHED);

  async function activeRecord(userId: string): Promise<UserRecord | null> {
    let record = usersById.get(userId);
    if (!record) {
      const row = await repo.findUserById(deps.db, userId);
      if (!row) return null;
      record = recordOf(row);
      usersById.set(userId, record);
    }
    return record.user.is_active ? record : null;
  }

  return {
    async userById(userId, issuedAt) {
      const record = await activeRecord(userId);
      return record && tokenCounts(issuedAt, record.tokensValidAfterMs) ? record.user : null;
    },

    async userByApiKey(key) {
      if (!looksLikeApiKey(key)) return null;
      const hash = hashApiKey(key);
      let user: AuthUser | null;
      let keyId: string;
      const cached = keysByHash.get(hash);
      if (cached) {
        keyId = cached.keyId;
        user = (await activeRecord(cached.userId))?.user ?? null;
      } else {
        const found = await repo.findApiKeyWithUser(deps.db, hash);
        if (!found || !found.keyActive) return null;
        keyId = found.keyId;
        keysByHash.set(hash, { keyId, userId: found.user.id });
        const fresh = recordOf(found.user);
        usersById.set(fresh.user.id, fresh);
        user = fresh.user.is_active ? fresh.user : null;
      }
      if (!user) return null;
      deps.usage.record(keyId, deps.now());
      return { ...user, api_key_id: keyId };
    },

    forgetUser: (userId) => usersById.delete(userId),
    forgetKey: (keyHash) => keysByHash.delete(keyHash),
  };
}
