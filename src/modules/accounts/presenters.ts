import type { AuthUser, Tier } from '../../platform/http/auth';
import type { ApiKeyRow, UserRow } from './repository';
import type { ApiKeyListItem, RegisteredUser, UserResponse } from './schemas';

/** A stored user as `req.user` carries it (no password hash). */
export function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    email: row.email,
    full_name: row.fullName,
    company: row.company,
    tier: row.tier as Tier,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    last_login: row.lastLogin ? row.lastLogin.toISOString() : null,
    api_key_id: null,
  };
}

/** GET /auth/me and the admin endpoints. */
export function presentUser(user: AuthUser): UserResponse {
  return {
    id: user.id,
    email: user.email,
    full_name: user.full_name,
    company: user.company,
    tier: user.tier,
    is_active: user.is_active,
    created_at: user.created_at,
    last_login: user.last_login,
  };
}

/** POST /auth/register: the registration fields only (RegisteredUser in /openapi.json). */
export function presentRegisteredUser(row: UserRow): RegisteredUser {
  const u = toAuthUser(row);
  return { id: u.id, email: u.email, full_name: u.full_name, company: u.company, tier: u.tier, created_at: u.created_at };
}

export function presentApiKey(row: ApiKeyRow, pendingUse: Date | undefined): ApiKeyListItem {
  const stored = row.lastUsedAt;
  const lastUsed = pendingUse && (!stored || pendingUse > stored) ? pendingUse : stored;
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: lastUsed ? lastUsed.toISOString() : null,
    is_active: row.isActive,
  };
}
