import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, quoted, timestamptz } from '../../platform/db/columns';
import { TIERS } from '../../platform/http/auth';

/** Accounts. E-mails are stored lower-cased, so a plain unique index makes them unique case-insensitively. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull(),
    company: text('company'),
    tier: text('tier').notNull().default('free'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    lastLogin: timestamptz('last_login'),
    /** Bearer tokens issued before this instant are refused (set when the account is deactivated). */
    tokensValidAfter: timestamptz('tokens_valid_after'),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('users_tier_check', sql`${t.tier} in (${quoted(TIERS)})`),
  ],
);

/** API keys: only the SHA-256 of the secret is kept; `prefix` (its first 8 characters) identifies it in listings. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: cascadingRef('user_id', () => users.id),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz('last_used_at'),
    isActive: boolean('is_active').notNull().default(true),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), index('api_keys_user_id_idx').on(t.userId, t.createdAt)],
);
