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

export interface EventDataByType {
  'audit.finding.created': {
    finding_id: string;
    property_id: string;
    meter_id: string;
    bill_id: string;
    reason: string;
    severity: 'low' | 'medium' | 'high';
    amount_at_issue: number | null;
    message: string;
  };
  'audit.dispute.updated': {
    finding_id: string;
    property_id: string;
    bill_id: string;
    /** disputed, credited or denied. */
    status: string;
    disputed_on: string | null;
    claim_reference: string | null;
    amount_claimed: number | null;
    amount_credited: number | null;
    credit_bill_id: string | null;
    closed_on: string | null;
  };
  'rate_analysis.savings_found': {
    property_id: string;
    property_name: string;
    recommended_tariff_id: string;
    recommended_tariff_name: string;
    annual_savings: number;
  };
  'billing.calculation.posted': {
    calculation_id: string;
    property_id: string;
    /** Charges on the PMS ledger, and their sum. */
    lines: number;
    amount: number;
  };
  'billing.posting.failed': {
    calculation_id: string;
    property_id: string;
    action: 'post' | 'reverse';
    failed_lines: Array<{ unit_id: string; amount: number; error: string | null }>;
  };
  'meter.intervals.imported': {
    meter_id: string;
    property_id: string;
    /** The first interval's start as imported (ISO 8601 with offset), and the last one's end (UTC). */
    start: string;
    end: string;
    intervals: number;
    interval_minutes: number;
    /** The kWh of every interval, summed (to the Wh). */
    kwh: number;
  };
}

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
  ownerId: string; propertyId: string; meterId: string; importId: string; start: string; intervalMinutes: number; kwh: readonly number[];
}): NewEvent {
  const endMs = Date.parse(i.start) + i.kwh.length * i.intervalMinutes * 60_000;
  const wh = i.kwh.reduce((sum, k) => sum + Math.round(k * 1000), 0);
  return {
    ownerId: i.ownerId, type: 'meter.intervals.imported', dedupeKey: `meter.intervals.imported:${i.importId}`,
    data: {
      meter_id: i.meterId, property_id: i.propertyId, start: i.start, end: new Date(endMs).toISOString(),
      intervals: i.kwh.length, interval_minutes: i.intervalMinutes, kwh: wh / 1000,
    },
  };
}
