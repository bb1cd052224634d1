import { z } from 'zod';
import { isoDate } from '../../../platform/http/validate';

/**
 * Payload of the `audit-dispute-reminders` queue (daily): the day (UTC) whose disputes open for more
 * than 60 days are notified. Each dispute is notified once, whichever day's job finds it first.
 */
export const disputeRemindersJobPayload = z.object({ day: isoDate }).strict();
