import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import type { Services } from '../../src/services';
import type { Tier } from '../../src/platform/http/auth';

export const DEFAULT_PASSWORD = 'Kilowatt42';

export interface RegisteredTestUser {
  user: { id: string; email: string; full_name: string; company: string | null; tier: Tier; created_at: string };
  password: string;
  /** Bearer token: send as `Authorization: Bearer ${token}`. */
  token: string;
}

type AppLike = { app: Express } | Express;
const expressApp = (a: AppLike): Express => (typeof a === 'function' ? a : a.app);

/** Registers a fresh user (unique e-mail) over HTTP and logs in. */
export async function registerUser(
  app: AppLike,
  overrides: { email?: string; password?: string; full_name?: string; company?: string | null } = {},
): Promise<RegisteredTestUser> {
  const password = overrides.password ?? DEFAULT_PASSWORD;
  const body = {
    email: overrides.email ?? `user-${crypto.randomBytes(6).toString('hex')}@example.com`,
    password,
    full_name: overrides.full_name ?? 'Test User',
    company: overrides.company ?? null,
  };
  const reg = await request(expressApp(app)).post('/api/v1/auth/register').send(body);
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await request(expressApp(app)).post('/api/v1/auth/login').type('form').send({ username: body.email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { user: reg.body, password, token: login.body.access_token };
}

/** Creates an API key for the token's user; returns the creation response (`key` is the secret). */
export async function createApiKey(
  app: AppLike,
  token: string,
  name = 'test key',
): Promise<{ id: string; name: string; key: string; created_at: string }> {
  const res = await request(expressApp(app)).post('/api/v1/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name });
  if (res.status !== 201) throw new Error(`create API key failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Sets a user's tier through the accounts service (the admin use case), as an
 * operator's change would. Pass the TestApp (or anything holding its services).
 */
export async function setTier(t: { services: Pick<Services, 'accounts'> }, userId: string, tier: Tier): Promise<void> {
  await t.services.accounts.updateUser(userId, { tier });
}
