"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createClient = createClient;
/**
 * A typed client of the Energy Cost API: every path, parameter, body and answer of the service's
 * OpenAPI document, checked by TypeScript, on openapi-fetch.
 *
 *   const api = createClient('http://localhost:8000', { token });
 *   const { data, error } = await api.GET('/api/v1/pm/bills/{id}/audit', { params: { path: { id } } });
 */
const openapi_fetch_1 = require("openapi-fetch");
/** The client of the service at `baseUrl` (e.g. http://localhost:8000), sending `credentials` on every request. */
function createClient(baseUrl, credentials = {}, options = {}) {
    const headers = {};
    if (credentials.token)
        headers.Authorization = `Bearer ${credentials.token}`;
    if (credentials.apiKey)
        headers['X-API-Key'] = credentials.apiKey;
    return (0, openapi_fetch_1.default)({
        ...options,
        baseUrl: baseUrl.replace(/\/+$/, ''),
        headers: { ...headers, ...options.headers },
    });
}
