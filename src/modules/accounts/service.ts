import crypto from 'node:crypto';
import { isUniqueViolation } from '../../platform/db/errors';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/logger';
import { badRequest, notFound, unauthorized } from '../../platform/http/errors';
import type { CredentialResolver, Tier } from '../../platform/http/auth';
import { generateApiKey } from './api-key-secret';
import { createCredentialStore, tokenIssueTime } from './credentials';
import { KeyUsageRecorder } from './key-usage';
import { hashPassword, verifyPassword } from './password';
import { presentApiKey, presentRegisteredUser, presentUser, toAuthUser } from './presenters';
import * as repo from './repository';
import type { ApiKeyListItem, CreatedApiKey, RegisterInput, RegisteredUser, UserResponse } from './schemas';
import { issueAccessToken } from './tokens';

export const EMAIL_TAKEN = 'Email already registered';
export const BAD_CREDENTIALS = 'Incorrect email or password';
export const KEY_LIMIT_REACHED = 'API key limit reached';
export const KEY_NOT_FOUND = 'API key not found';
export const USER_NOT_FOUND = 'User not found';

/** How often batched API-key use times are written. */
export const KEY_USAGE_FLUSH_MS = 30_000;
/** Users listed by the admin search without an e-mail filter. */
const ADMIN_LIST_LIMIT = 100;

export interface AccountsDeps {
  db: Db;
  config: Pick<Config, 'accessTokenExpireMinutes' | 'limits'>;
  jwtSecret: string;
  logger: Logger;
  now: () => Date;
}

export interface AccountsService {
  register(input: RegisterInput): Promise<RegisteredUser>;
  login(email: string, password: string): Promise<{ access_token: string; token_type: 'bearer' }>;
  listApiKeys(userId: string): Promise<ApiKeyListItem[]>;
  createApiKey(userId: string, name: string): Promise<CreatedApiKey>;
  revokeApiKey(userId: string, keyId: string): Promise<void>;
  /** Operator use cases (the /admin endpoints and test helpers). */
  findUsers(filter: { email?: string }): Promise<UserResponse[]>;
  updateUser(userId: string, patch: { tier?: Tier; is_active?: boolean }): Promise<UserResponse>;
  /** What the authentication middleware resolves tokens and keys with. */
  credentials: CredentialResolver;
  /** Writes pending API-key use times now (also done every 30 s and on close). */
  flushKeyUsage(): Promise<void>;
  close(): Promise<void>;
}

export function createAccountsService(deps: AccountsDeps): AccountsService {
  const { db, now } = deps;
  const usage = new KeyUsageRecorder((uses) => repo.touchApiKeys(db, uses), deps.logger, KEY_USAGE_FLUSH_MS);
  const credentials = createCredentialStore({ db, now, usage });

  // Unknown e-mails are checked against this hash, so they take as long as a wrong password.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => (decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex')));

  return {
    async register(input) {
      if (await repo.findUserByEmail(db, input.email)) throw badRequest(EMAIL_TAKEN);
      const passwordHash = await hashPassword(input.password);
      try {
        const row = await repo.insertUser(db, {
          id: crypto.randomUUID(),
          email: input.email,
          passwordHash,
          fullName: input.full_name,
          company: input.company ?? null,
          createdAt: now(),
        });
        return presentRegisteredUser(row);
      } catch (err) {
        // Two concurrent registrations of one address: the unique index decides.
        if (isUniqueViolation(err)) throw badRequest(EMAIL_TAKEN);
        throw err;
      }
    },

    async login(email, password) {
      const user = await repo.findUserByEmail(db, email.trim().toLowerCase());
      const valid = await verifyPassword(password, user ? user.passwordHash : await decoy());
      // An inactive account gets the same answer as a wrong password: no account state is disclosed.
      if (!user || !valid || !user.isActive) throw unauthorized(BAD_CREDENTIALS);
      const at = now();
      await repo.updateUser(db, user.id, { lastLogin: at });
      const token = issueAccessToken({
        secret: deps.jwtSecret,
        userId: user.id,
        now: tokenIssueTime(at, user.tokensValidAfter),
        lifetimeMinutes: deps.config.accessTokenExpireMinutes,
      });
      return { access_token: token, token_type: 'bearer' };
    },

    async listApiKeys(userId) {
      const rows = await repo.listApiKeys(db, userId);
      return rows.map((row) => presentApiKey(row, usage.pendingUse(row.id)));
    },

    async createApiKey(userId, name) {
      const secret = generateApiKey();
      const row = await db.transaction(async (tx) => {
        await repo.lockUser(tx, userId);
        if ((await repo.countActiveApiKeys(tx, userId)) >= deps.config.limits.maxApiKeys) throw badRequest(KEY_LIMIT_REACHED);
        return repo.insertApiKey(tx, {
          id: crypto.randomUUID(),
          userId,
          name,
          prefix: secret.prefix,
          keyHash: secret.hash,
          createdAt: now(),
        });
      });
      return { id: row.id, name: row.name, key: secret.key, created_at: row.createdAt.toISOString() };
    },

    async revokeApiKey(userId, keyId) {
      // Another account's key is "not found": its existence is not disclosed.
      const key = await repo.findApiKey(db, userId, keyId);
      if (!key) throw notFound(KEY_NOT_FOUND);
      await repo.revokeApiKey(db, key.id, now());
    },

    async findUsers(filter) {
      const email = filter.email?.trim().toLowerCase();
      const rows = await repo.listUsers(db, { email, limit: ADMIN_LIST_LIMIT });
      return rows.map((row) => presentUser(toAuthUser(row)));
    },

    async updateUser(userId, patch) {
      // Deactivation revokes every bearer token issued so far: reactivated, the account needs a new login.
      const tokensValidAfter = patch.is_active === false ? now() : undefined;
      const row = await repo.updateUser(db, userId, { tier: patch.tier, isActive: patch.is_active, tokensValidAfter });
      if (!row) throw notFound(USER_NOT_FOUND);
      return presentUser(toAuthUser(row));
    },

    credentials,
    flushKeyUsage: () => usage.flush(),
    close: () => usage.close(),
  };
}
