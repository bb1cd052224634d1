import type { RequestHandler } from 'express';
import type { Config } from '../../platform/config';
import { notFound, unauthorized } from '../../platform/http/errors';
import { safeEqual } from '../../platform/http/auth';

export const ADMIN_TOKEN_HEADER = 'x-admin-token';

/**
 * Guards the operator endpoints: without ADMIN_TOKEN they do not exist (404);
 * otherwise the X-Admin-Token header must match it (constant-time), else 401.
 */
export function requireAdminToken(config: Pick<Config, 'adminToken'>): RequestHandler {
  return (req, _res, next) => {
    const expected = config.adminToken;
    if (!expected) return next(notFound('Not Found'));
    const given = req.headers[ADMIN_TOKEN_HEADER];
    if (typeof given !== 'string' || !safeEqual(given, expected)) return next(unauthorized());
    next();
  };
}
