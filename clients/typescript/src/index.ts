/**
 * A typed client of the Energy Cost API: every path, parameter, body and answer of the service's
 * OpenAPI document, checked by TypeScript, on openapi-fetch.
 *
 *   const api = createClient('http://localhost:8000', { token });
 *   const { data, error } = await api.GET('/api/v1/pm/bills/{id}/audit', { params: { path: { id } } });
 */
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { paths, components, operations } from './schema';
export type { Client } from 'openapi-fetch';

/** How the client authenticates: a bearer token from POST /api/v1/auth/login, or an API key. None calls anonymously. */
export interface Credentials {
  token?: string;
  apiKey?: string;
}

/** The client of the service at `baseUrl` (e.g. http://localhost:8000), sending `credentials` on every request. */
export function createClient(baseUrl: string, credentials: Credentials = {}, options: Omit<ClientOptions, 'baseUrl'> = {}): Client<paths> {
  const headers: Record<string, string> = {};
  if (credentials.token) headers.Authorization = `Bearer ${credentials.token}`;
  if (credentials.apiKey) headers['X-API-Key'] = credentials.apiKey;
  return createFetchClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, ...(options.headers as Record<string, string> | undefined) },
  });
}
