import type { RequestHandler } from 'express';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AppError } from './errors';

/** A documented path as Express matches it: case-insensitive, one segment per `{param}`, a trailing slash allowed. */
function pathPattern(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

/** 405 Method Not Allowed naming the methods a path has (HEAD wherever GET is). */
export function methodNotAllowedError(methods: Iterable<string>): AppError {
  const allowed = new Set(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  return new AppError(405, 'Method Not Allowed', { headers: { Allow: [...allowed].sort().join(', ') } });
}

/**
 * 405 with `Allow` for a documented path asked with a method it does not have (TRACE on
 * /api/v1/pm/properties/{id}). Mounted after every router, so it sees only requests no route took;
 * the paths and methods are the OpenAPI document's, read when the first such request comes. A
 * literal path of an ApiRouter (/tariffs/search) answers its own 405 (router.ts).
 */
export function methodNotAllowed(registry: OpenAPIRegistry): RequestHandler {
  let routes: Array<{ pattern: RegExp; method: string }> | undefined;
  const documented = () =>
    (routes ??= registry.definitions.flatMap((d) =>
      d.type === 'route' ? [{ pattern: pathPattern(d.route.path), method: d.route.method.toUpperCase() }] : [],
    ));
  return (req, _res, next) => {
    const allowed = documented()
      .filter((r) => r.pattern.test(req.path))
      .map((r) => r.method);
    if (allowed.length === 0) return next();
    throw methodNotAllowedError(allowed);
  };
}
