import { z } from 'zod';
import type { ApiRouter } from '../../platform/http/router';
import type { AccountsService } from '../accounts/service';
import { userResponse } from '../accounts/schemas';
import { adminUserParams, adminUserPatch, adminUserQuery } from './schemas';

const tags = ['Admin'];
const errors = { 404: 'User not found (or ADMIN_TOKEN unset: Not Found)' };

/** Operator endpoints under /admin, authenticated by X-Admin-Token instead of a user. */
export function registerAdminRoutes(api: ApiRouter, accounts: AccountsService): void {
  api.get(
    '/admin/users',
    {
      summary: 'Find users by e-mail (operator)',
      tags,
      auth: 'admin',
      query: adminUserQuery,
      response: z.array(userResponse),
      errors,
    },
    ({ query }) => accounts.findUsers({ email: query.email }),
  );

  api.patch(
    '/admin/users/:id',
    {
      summary: "Set a user's tier or active flag (operator)",
      tags,
      auth: 'admin',
      params: adminUserParams,
      body: adminUserPatch,
      response: userResponse,
      errors,
    },
    ({ params, body }) => accounts.updateUser(params.id, body),
  );
}
