import type { Response } from 'express';
import { z } from 'zod';
import { callerId } from '../../platform/http/auth';
import { onOwned } from '../../platform/http/owned-routes';
import type { ApiRouter } from '../../platform/http/router';
import type { Limits } from '../../platform/http/limits';
import { unauthorized } from '../../platform/http/errors';
import type { AccountsService } from './service';
import { presentUser } from './presenters';
import {
  apiKeyListItem,
  apiKeyParams,
  createApiKeyBody,
  createdApiKey,
  loginForm,
  registerBody,
  registeredUser,
  tokenResponse,
  userResponse,
} from './schemas';

const tags = ['Accounts'];

/**
 * An answer that carries a credential (a token, an API key) is kept by no cache, shared or the
 * browser's (RFC 9111 no-store; RFC 6749 5.1 asks it of token answers, with Pragma for HTTP/1.0).
 */
function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

/** POST /auth/register, POST /auth/login, GET /auth/me and the API-key endpoints. */
export function registerAccountRoutes(
  api: ApiRouter,
  deps: { accounts: AccountsService; limits: Pick<Limits, 'register' | 'login'> },
): void {
  const { accounts, limits } = deps;

  api.post(
    '/auth/register',
    {
      summary: 'Register a user',
      tags,
      auth: 'none',
      body: registerBody,
      status: 201,
      response: registeredUser,
      errors: { 400: 'Email already registered', 429: 'Rate limit exceeded' },
      middleware: [limits.register],
    },
    ({ body }) => accounts.register(body),
  );

  api.post(
    '/auth/login',
    {
      summary: 'Log in with the OAuth2 password form',
      description:
        'form-urlencoded `username` (the e-mail) and `password`; returns a bearer token (answered with `Cache-Control: no-store`).',
      tags,
      auth: 'none',
      body: loginForm,
      bodyType: 'application/x-www-form-urlencoded',
      response: tokenResponse,
      errors: { 401: 'Incorrect email or password', 429: 'Rate limit exceeded' },
      middleware: [limits.login],
    },
    async ({ body, res }) => {
      const token = await accounts.login(body.username, body.password);
      noStore(res);
      return token;
    },
  );

  api.get('/auth/me', { summary: 'The authenticated user', tags, auth: 'required', response: userResponse }, ({ req }) => {
    if (!req.user) throw unauthorized();
    return presentUser(req.user);
  });

  api.get(
    '/auth/api-keys',
    { summary: "List the caller's API keys", tags, auth: 'required', response: z.array(apiKeyListItem) },
    ({ req }) => accounts.listApiKeys(callerId(req)),
  );

  api.post(
    '/auth/api-keys',
    {
      summary: 'Create an API key (the key is shown only in this response)',
      description: 'Answered with `Cache-Control: no-store`: no cache keeps the key.',
      tags,
      auth: 'required',
      body: createApiKeyBody,
      status: 201,
      response: createdApiKey,
      errors: { 400: 'API key limit reached' },
    },
    async ({ body, req, res }) => {
      const key = await accounts.createApiKey(callerId(req), body.name);
      noStore(res);
      return key;
    },
  );

  onOwned(
    api,
    'delete',
    '/auth/api-keys/:id',
    {
      summary: 'Revoke an API key',
      tags,
      params: apiKeyParams,
      status: 204,
      notFound: 'API key not found',
    },
    (ownerId, id) => accounts.revokeApiKey(ownerId, id),
  );
}
