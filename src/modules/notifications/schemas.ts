import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { queryBoolean } from '../../platform/http/validate';

export const notificationListQuery = pageQuery.extend({ unread: queryBoolean.optional() });
export type NotificationListQuery = z.output<typeof notificationListQuery>;

export const notificationIdParams = z.object({ id: z.string().min(1).max(200) });

export const notificationResponse = z.object({
  id: z.string(),
  type: z.string(),
  property_id: z.string().nullable(),
  message: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
