import { utcDay } from './platform/dates';
import type { Schedule } from './platform/scheduler';
import type { AppQueues } from './queues';
import type { Config } from './platform/config';

/**
 * The service's periodic jobs (cron in UTC). Each tick only enqueues into a queue of
 * the registry.
 */
export const appSchedules: ReadonlyArray<Schedule<AppQueues>> = [
  // `npm run data:import` runs in its own process; within 5 minutes properties are re-analysed on the new tariffs.
  { name: 'tariff-import-sweep', cron: '*/5 * * * *', queue: 'tariff-import-sweep', payload: () => ({}) },
  // An acknowledged webhook is never lost: every 15 s, streams with an event pending for over 10 s are queued again.
  {
    name: 'webhook-sweep',
    cron: '*/15 * * * * *',
    queue: 'webhook-sweep',
    payload: () => ({}),
    jobId: (tick) => `webhook-sweep@${tick.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`,
  },
  // Analytics precompute: owners whose data changed since their last recompute, and nightly every
  // owner from the bills (month boundaries move "this month" and every window).
  { name: 'cost-rollup-changed', cron: '*/5 * * * *', queue: 'cost-rollup-sweep', payload: () => ({ scope: 'changed' }) },
  {
    name: 'cost-rollup-nightly',
    cron: '20 0 * * *',
    queue: 'cost-rollup-sweep',
    payload: (tick) => ({ scope: 'all', day: utcDay(tick) }),
  },
  // Bill-audit disputes unanswered for more than 60 days: a notification each, once (audit README "Disputes and recovered money").
  // Webhook deliveries due (a retry's time come, or an event whose job was lost): every 10 s.
  {
    name: 'event-deliveries',
    cron: '*/10 * * * * *',
    queue: 'event-deliveries',
    payload: () => ({}),
    jobId: (tick) => `event-deliveries@${tick.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`,
  },
  // Webhook events past their 30 days, with their delivery logs (events README "Retention").
  { name: 'event-prune', cron: '50 3 * * *', queue: 'event-prune', payload: (tick) => ({ day: utcDay(tick) }) },
  { name: 'audit-dispute-reminders', cron: '40 6 * * *', queue: 'audit-dispute-reminders', payload: (tick) => ({ day: utcDay(tick) }) },
  // Idempotency-Keys are kept 24 hours: hourly, the expired ones are deleted (a claim ignores them meanwhile).
  { name: 'idempotency-sweep', cron: '35 * * * *', queue: 'idempotency-sweep', payload: () => ({}) },
];

/**
 * The schedules of this deployment: appSchedules, and the catalog refresh from the URDB API when
 * URDB_REFRESH_CRON sets one (off by default; a tick without URDB_API_KEY does nothing).
 */
export function deploymentSchedules(config: Pick<Config, 'urdb'>): ReadonlyArray<Schedule<AppQueues>> {
  const cron = config.urdb.refreshCron;
  if (cron === undefined) return appSchedules;
  return [
    ...appSchedules,
    {
      name: 'tariff-refresh',
      cron,
      queue: 'tariff-refresh-schedule',
      payload: () => ({}),
      jobId: (tick) => `tariff-refresh@${tick.toISOString().slice(0, 16).replace(/[-:]/g, '')}Z`,
    },
  ];
}
