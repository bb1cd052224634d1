import { z } from 'zod';
import { SEVERITIES } from '../audit/audit.types';

/**
 * The events an account's endpoints can subscribe to (README "Events"), and the `data` each carries.
 * Money is in dollars with 2 decimals, as the API answers it; dates are ISO 8601.
 */
export const EVENT_TYPES = [
  'audit.finding.created',
  'audit.dispute.updated',
  'rate_analysis.savings_found',
  'billing.calculation.posted',
  'billing.posting.failed',
  'meter.intervals.imported',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by POST /webhook-endpoints/{id}/test to that endpoint only, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

const findingId = z.string().meta({ description: 'the audit finding (GET /pm/audit/findings)' });
const dollarsOrNull = z.number().nullable();

/** Each event type's `data`, as delivered (and as the OpenAPI document's `webhooks` show it). */
export const eventDataSchemas = {
  'audit.finding.created': z.object({
    finding_id: findingId,
    property_id: z.string(),
    meter_id: z.string(),
    bill_id: z.string(),
    reason: z.string(),
    severity: z.enum(SEVERITIES),
    amount_at_issue: dollarsOrNull.meta({
      description: 'dollars at issue (positive: billed more than it should be); null where the rule has none',
    }),
    message: z.string(),
  }),
  'audit.dispute.updated': z.object({
    finding_id: findingId,
    property_id: z.string(),
    bill_id: z.string(),
    status: z.enum(['disputed', 'credited', 'denied']),
    disputed_on: z.string().nullable(),
    claim_reference: z.string().nullable(),
    amount_claimed: dollarsOrNull,
    amount_credited: dollarsOrNull,
    credit_bill_id: z.string().nullable(),
    closed_on: z.string().nullable(),
  }),
  'rate_analysis.savings_found': z.object({
    property_id: z.string(),
    property_name: z.string(),
    recommended_tariff_id: z.string(),
    recommended_tariff_name: z.string(),
    annual_savings: z.number().meta({ description: 'dollars a year' }),
  }),
  'billing.calculation.posted': z.object({
    calculation_id: z.string(),
    property_id: z.string(),
    lines: z.number().int().meta({ description: 'charges on the PMS ledger' }),
    amount: z.number().meta({ description: 'their sum, dollars' }),
  }),
  'billing.posting.failed': z.object({
    calculation_id: z.string(),
    property_id: z.string(),
    action: z.enum(['post', 'reverse']),
    failed_lines: z.array(z.object({ unit_id: z.string(), amount: z.number(), error: z.string().nullable() })),
  }),
  'meter.intervals.imported': z.object({
    meter_id: z.string(),
    property_id: z.string(),
    start: z.string().meta({ description: "the first interval's start as imported (ISO 8601 with offset)" }),
    end: z.string().meta({ description: "the last interval's end (UTC)" }),
    intervals: z.number().int(),
    interval_minutes: z.number().int(),
    kwh: z.number().meta({ description: 'the kWh of every interval, summed (to the Wh)' }),
  }),
} satisfies Record<EventType, z.ZodType>;

export type EventDataByType = { [K in EventType]: z.output<(typeof eventDataSchemas)[K]> };

/** An event to write to the outbox: its owner (the account whose endpoints get it), type and data. */
export type NewEvent = {
  [K in EventType]: {
    ownerId: string;
    type: K;
    data: EventDataByType[K];
    /** Makes emission idempotent per owner: a second event with the same key adds nothing. */
    dedupeKey?: string;
  };
}[EventType];

/**
 * The `meter.intervals.imported` event of an import of a meter's interval readings (the intervals
 * shape of POST /calculate: start with offset, 15, 30 or 60 minutes, kWh per interval). For the
 * intervals import to emit, in the transaction that stores them, with the import's id as `importId`.
 */
export function intervalsImportedEvent(i: {
  ownerId: string;
  propertyId: string;
  meterId: string;
  importId: string;
  start: string;
  end?: string;
  intervalMinutes: number;
  kwh: readonly number[];
}): NewEvent {
  // Without `end`, the intervals are consecutive: the last one ends kwh.length intervals after start.
  const endMs = i.end === undefined ? Date.parse(i.start) + i.kwh.length * i.intervalMinutes * 60_000 : Date.parse(i.end);
  const wh = i.kwh.reduce((sum, k) => sum + Math.round(k * 1000), 0);
  return {
    ownerId: i.ownerId,
    type: 'meter.intervals.imported',
    dedupeKey: `meter.intervals.imported:${i.importId}`,
    data: {
      meter_id: i.meterId,
      property_id: i.propertyId,
      start: i.start,
      end: new Date(endMs).toISOString(),
      intervals: i.kwh.length,
      interval_minutes: i.intervalMinutes,
      kwh: wh / 1000,
    },
  };
}
