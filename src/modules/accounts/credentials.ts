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

/**
 * Resolves bearer-token subjects and API keys to active users with at most one
 * indexed query per request, and none while the short-lived cache holds the record.
 */
export function createCredentialStore(deps: { db: Db; now: () => Date; usage: KeyUsageRecorder }): CredentialStore {
  const usersById = new TtlCache<AuthUser>(AUTH_CACHE_TTL_MS, MAX_CACHED);
  const keysByHash = new TtlCache<{ keyId: string; userId: string }>(AUTH_CACHE_TTL_MS, MAX_CACHED);

  async function activeUser(userId: string): Promise<AuthUser | null> {
    let user = usersById.get(userId);
    if (!user) {
      const row = await repo.findUserById(deps.db, userId);
      if (!row) return null;
      user = toAuthUser(row);
      usersById.set(userId, user);
    }
    return user.is_active ? user : null;
  }

  return {
    userById: activeUser,

    async userByApiKey(key) {
      if (!looksLikeApiKey(key)) return null;
      const hash = hashApiKey(key);
      let user: AuthUser | null;
      let keyId: string;
      const cached = keysByHash.get(hash);
      if (cached) {
        keyId = cached.keyId;
        user = await activeUser(cached.userId);
      } else {
        const found = await repo.findApiKeyWithUser(deps.db, hash);
        if (!found || !found.keyActive) return null;
        keyId = found.keyId;
        keysByHash.set(hash, { keyId, userId: found.user.id });
        const fresh = toAuthUser(found.user);
        usersById.set(fresh.id, fresh);
        user = fresh.is_active ? fresh : null;
      }
      if (!user) return null;
      deps.usage.record(keyId, deps.now());
      return { ...user, api_key_id: keyId };
    },

    forgetUser: (userId) => usersById.delete(userId),
    forgetKey: (keyHash) => keysByHash.delete(keyHash),
  };
}
