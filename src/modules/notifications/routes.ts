import type { ApiRouter } from '../../platform/http/router';
import { pageSchema } from '../../platform/http/pagination';
import { getPageOfOwnList, onOwned } from '../../platform/http/owned-routes';
import { notificationIdParams, notificationListQuery, notificationResponse } from './schemas';
import type { NotificationService } from './service';
import * as ex from './examples';

const tags = ['Notifications'];

export function registerNotificationRoutes(api: ApiRouter, notifications: NotificationService): void {
  getPageOfOwnList(
    api,
    '/pm/notifications',
    {
      summary: "List the caller's notifications, newest first",
      tags,
      description: '`unread=true` lists only the unread ones.',
      query: notificationListQuery,
      response: pageSchema(notificationResponse).meta({ example: ex.notificationPage }),
    },
    notifications.list,
  );

  onOwned(
    api,
    'post',
    '/pm/notifications/:id/read',
    {
      summary: 'Mark a notification read',
      tags,
      params: notificationIdParams,
      description: 'Idempotent: marking a read notification again keeps its first read_at.',
      response: notificationResponse.meta({ example: ex.readNotification }),
      notFound: 'Notification not found',
    },
    (ownerId, id) => notifications.markRead(ownerId, id),
  );
}
