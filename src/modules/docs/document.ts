import { OpenApiGeneratorV31, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { SERVICE_VERSION } from '../../platform/paths';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The API prefix dropped from operation ids: every versioned path starts with it. */
const VERSION_PREFIX = '/api/v1';

const pascal = (word: string) =>
  word
    .split(/[-_.]/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

/**
 * The operation id of a method on a documented path, derived from both alone so that it never
 * changes while the route does not: the method, then each path segment in PascalCase after the
 * /api/v1 prefix (dashes and underscores dropped), a `{param}` read as `By<Param>`.
 *   GET  /api/v1/pm/properties/{id}/bills  ->  getPmPropertiesByIdBills
 *   POST /api/v1/auth/login                ->  postAuthLogin
 *   GET  /health                           ->  getHealth
 */
export function operationIdOf(method: string, path: string): string {
  const rest = path === VERSION_PREFIX || path.startsWith(`${VERSION_PREFIX}/`) ? path.slice(VERSION_PREFIX.length) : path;
  const words = rest
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? `By${pascal(param[1])}` : pascal(segment);
    });
  return method.toLowerCase() + (words.length > 0 ? words.join('') : 'Root');
}

/**
 * Gives every operation of the document its derived `operationId` (operationIdOf); two operations
 * deriving one id would make clients ambiguous, so that throws naming both.
 */
export function assignOperationIds(document: OpenApiDocument): OpenApiDocument {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      const id = operationIdOf(method, path);
      const other = seen.get(id);
      if (other) throw new Error(`operationId ${id} derives from both ${other} and ${method.toUpperCase()} ${path}`);
      seen.set(id, `${method.toUpperCase()} ${path}`);
      operation.operationId = id;
    }
  }
  return document;
}

/** The OpenAPI 3.1 document of every route registered in `registry` (GET /openapi.json serves it). */
export function buildOpenApiDocument(registry: OpenAPIRegistry): OpenApiDocument {
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Energy Tariff, Property Cost and Tenant Billing API',
      version: SERVICE_VERSION,
      description:
        'US utility tariffs and bill calculation, property energy-cost analytics, and tenant utility billing (RUBS). ' +
        'Errors are `{"detail": "..."}`; a 422 adds `errors: [{field, message}]`. Answers over 1 KB are gzipped for clients ' +
        'that accept it; a GET answer has an ETag, and an unchanged one is a 304 to `If-None-Match`.',
    },
    servers: [{ url: '/' }],
  });
  return assignOperationIds(document);
}
