import type { Request } from 'express';
import { unauthorized } from '../../platform/http/errors';

/** The authenticated caller's id (routes with auth 'required' always have one). */
export function callerId(req: Request): string {
  if (!req.user) throw unauthorized();
  return req.user.id;
}
