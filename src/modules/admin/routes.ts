import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { ApiRouter } from '../../platform/http/router';
import type { AccountsService } from '../accounts/service';
import { userResponse } from '../accounts/schemas';
import { requireAdminToken } from './admin-token';
import { adminUserParams, adminUserPatch, adminUserQuery } from './schemas';

const tags = ['Admin'];
const errors = { 401: 'Missing or wrong X-Admin-Token', 404: 'User not found (or ADMIN_TOKEN unset: Not Found)' };

/** Operator endpoints under /admin, authenticated by X-Admin-Token instead of a user. */
export function registerAdminRoutes(api: ApiRouter, deps: { config: Pick<Config, 'adminToken'>; accounts: AccountsService }): void {
  const adminToken = requireAdminToken(deps.config);

  api.get(
    '/admin/users',
    {
      summary: 'Find users by e-mail (operator)',
      description: 'Header `X-Admin-Token: $ADMIN_TOKEN`.',
      tags,
      auth: 'none',
      query: adminUserQuery,
      response: z.array(userResponse),
      errors,
      middleware: [adminToken],
    },
    ({ query }) => deps.accounts.findUsers({ email: query.email }),
  );

  api.patch(
    '/admin/users/:id',
    {
      summary: "Set a user's tier or active flag (operator)",
      description: 'Header `X-Admin-Token: $ADMIN_TOKEN`.',
      tags,
      auth: 'none',
      params: adminUserParams,
      body: adminUserPatch,
      response: userResponse,
      errors,
      middleware: [adminToken],
    },
    ({ params, body }) => deps.accounts.updateUser(params.id, body),
  );
}
