import { z } from 'zod';
import { TIERS } from '../../platform/http/auth';

export const adminUserParams = z.object({ id: z.string().min(1).max(100) });

export const adminUserPatch = z
  .object({ tier: z.enum(TIERS).optional(), is_active: z.boolean().optional() })
  .strict()
  .meta({ id: 'AdminUserPatch', example: { tier: 'pro' } });

export const adminUserQuery = z.object({
  email: z.string().trim().min(1).max(254).optional().describe('exact e-mail, case-insensitive; omitted: the 100 newest users'),
});
