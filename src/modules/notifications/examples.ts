/** OpenAPI examples of the notification endpoints: a saving the rate analysis found. */

export const notification = {
  id: '5b2e8c1d-7f3a-4d6e-9a0b-2c4d6e8f0a1b',
  type: 'rate_savings',
  property_id: '8cc18c3e-88d8-4b6f-9575-d6ab67ae5bb4',
  message: 'Palm Court: switching to Large General Service (LGS) could save $1840.20 a year',
  created_at: '2026-11-03T06:00:12.000Z',
  read_at: null,
};

export const readNotification = { ...notification, read_at: '2026-11-03T08:41:05.000Z' };

export const notificationPage = { items: [notification], total: 1, page: 1, per_page: 20, pages: 1 };
