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

/**
 * 405 with `Allow` for a documented path asked with a method it does not have (TRACE on
 * /api/v1/tariffs/search). Mounted after every router, so it sees only requests no route took;
 * the paths and methods are the OpenAPI document's, read when the first such request comes.
 */
export function methodNotAllowed(registry: OpenAPIRegistry): RequestHandler {
  let routes: Array<{ pattern: RegExp; method: string; literal: boolean }> | undefined;
  const documented = () => (routes ??= registry.definitions.flatMap((d) =>
    d.type === 'route' ? [{ pattern: pathPattern(d.route.path), method: d.route.method.toUpperCase(), literal: !d.route.path.includes('{') }] : []));
  return (req, _res, next) => {
    const matching = documented().filter((r) => r.pattern.test(req.path));
    // A literal path (/tariffs/search) is not an id of a templated one (/tariffs/{id}): its own methods only.
    const literal = matching.filter((r) => r.literal);
    const allowed = new Set((literal.length > 0 ? literal : matching).map((r) => r.method));
    if (allowed.size === 0) return next();
    if (allowed.has('GET')) allowed.add('HEAD');
    const allow = [...allowed].sort().join(', ');
    throw new AppError(405, 'Method Not Allowed', { headers: { Allow: allow } });
  };
}
