import type { Db } from '../../platform/db/client';
import type { CredentialResolver } from '../../platform/http/auth';
import { hashApiKey, looksLikeApiKey } from './api-key-secret';
import type { KeyUsageRecorder } from './key-usage';
import { toAuthUser } from './presenters';
import * as repo from './repository';

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
 * Resolves bearer-token subjects and API keys to active users with one indexed query per request,
 * read each time: a tier change, a deactivation or a revoked key counts on the next request in
 * every process (decision record 0015).
 */
export function createCredentialStore(deps: { db: Db; now: () => Date; usage: KeyUsageRecorder }): CredentialResolver {
  return {
    async userById(userId, issuedAt) {
      const row = await repo.findUserById(deps.db, userId);
      if (!row?.isActive || !tokenCounts(issuedAt, row.tokensValidAfter?.getTime() ?? null)) return null;
      return toAuthUser(row);
    },

    async userByApiKey(key) {
      if (!looksLikeApiKey(key)) return null;
      const found = await repo.findApiKeyWithUser(deps.db, hashApiKey(key));
      if (!found?.keyActive || !found.user.isActive) return null;
      deps.usage.record(found.keyId, deps.now());
      return { ...toAuthUser(found.user), api_key_id: found.keyId };
    },
  };
}
