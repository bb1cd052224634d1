import { z } from 'zod';
import '../../platform/http/validate'; // the service's validation messages, in every process
import { daysInMonth } from '../../platform/dates';
import { firstUnstorableText, mayHoldUnstorableEscape, unstorableTextProblem } from '../../platform/http/storable-text';

/** Bodies larger than this are not kept: a signed one is logged `failed` (and answered 200). */
export const MAX_BODY_BYTES = 1024 * 1024;

export const STREAM_EVENTS = ['data.new', 'data.update', 'sync.complete'] as const;
export type StreamEventType = (typeof STREAM_EVENTS)[number];
export const RESOURCE_TYPES = ['property', 'unit', 'lease', 'resident'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export const PING_EVENT = 'test.ping';

/** An event that enters its connection's stream, as processing reads it back from the inbox. */
export interface StreamEnvelope {
  event: StreamEventType;
  connectionId: string;
  /** Null only for sync.complete, which may omit it. */
  resourceType: ResourceType | null;
  /** ISO 8601 with a zone (a time without one is read as UTC). */
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * What the receiver decides about a signed body before storing it. `resourceType` is the log's,
 * whatever the kind: `resource_type` as sent, when it is a string PostgreSQL can store.
 */
export type Arrival = { resourceType: string | null } & (
  | { kind: 'ping'; connectionId: string | null }
  | { kind: 'event'; envelope: StreamEnvelope }
  | { kind: 'ignored' | 'failed'; event: string | null; connectionId: string | null; detail: string }
);

/** A string PostgreSQL stores as it is. */
const storable = z.string().superRefine((v, ctx) => {
  const problem = unstorableTextProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: v });
});
const connectionId = storable.trim().min(1).max(200);
const eventName = storable.min(1).max(100);

/** The years ISO 8601's four digits write, less 0000, which PostgreSQL refuses (its timestamptz runs from 4713 BC to 294276 AD). */
const MIN_YEAR = 1;
const MAX_YEAR = 9999;
/** PostgreSQL refuses a zone displacement of 16 hours or more. */
const MAX_OFFSET_MINUTES = 15 * 60 + 59;
const NOT_ISO = 'invalid ISO 8601 date-time, expected YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]';
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))?$/;

/**
 * Why a timestamp cannot be taken, or null: only what PostgreSQL stores in a timestamptz and
 * isoToMicros (the applier's stale check) reads, so an event that enters its stream can be
 * stored and applied. Seconds are required; a time without a zone is read as UTC.
 */
function timestampProblem(ts: string): string | null {
  const m = ISO_DATE_TIME.exec(ts);
  if (!m) return NOT_ISO;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (year < MIN_YEAR || year > MAX_YEAR) return `year out of range (${String(MIN_YEAR).padStart(4, '0')} to ${MAX_YEAR})`;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 'not a calendar date';
  if (hour > 23 || minute > 59 || second > 59) return 'not a time of day';
  if (m[7] !== undefined && (Number(m[9]) > 59 || Number(m[8]) * 60 + Number(m[9]) > MAX_OFFSET_MINUTES)) {
    return 'time zone offset out of range (-15:59 to +15:59)';
  }
  return null;
}
const isoTimestamp = z.string().superRefine((v, ctx) => {
  const problem = timestampProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: v });
});
const data = z.looseObject({});

/** How a path is named in a reason: `data.unit_number`, `data.items[0]`, `data["odd key"]`. */
function pathOf(keys: Array<string | number>): string {
  return keys.reduce<string>((path, key) => {
    if (typeof key === 'number') return `${path}[${key}]`;
    if (/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key)) return path ? `${path}.${key}` : key;
    return `${path}[${key.length <= 64 ? JSON.stringify(key) : '…'}]`;
  }, '');
}

/**
 * The first string of a parsed body, key or value at any depth, that PostgreSQL could not
 * store as text or jsonb (the applier writes parts of `data` to both), as a reason; null if
 * none. The key itself is not repeated in the reason: it is what cannot be stored.
 */
function firstUnstorable(body: Record<string, unknown>): string | null {
  const found = firstUnstorableText(body);
  if (!found) return null;
  return found.isKey ? `${pathOf(found.path) || 'body'}: keys ${found.problem}` : `${pathOf(found.path)}: ${found.problem}`;
}

function issue(field: string, schema: z.ZodType, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : `${field}: ${parsed.error.issues[0].message}`;
}

/** Refuses bytes that are not UTF-8 (rather than replacing them): such a body is not JSON. */
const utf8 = new TextDecoder('utf-8', { fatal: true });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string field kept in the log only if it can be stored as it is. */
const asString = (v: unknown) => (storable.safeParse(v).success ? (v as string) : null);
const withZone = (ts: string) => (/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(ts) ? ts : `${ts}Z`);

/**
 * Classifies a signed body (null: over MAX_BODY_BYTES): what is logged, and whether it enters
 * its connection's stream. Never throws: a provider must not retry garbage forever, so every
 * malformed body is a `failed` log entry with its reason.
 */
export function classifyArrival(body: Buffer | null): Arrival {
  const failed = (detail: string, event: string | null = null, conn: string | null = null, rt: string | null = null): Arrival => ({
    kind: 'failed',
    event,
    connectionId: conn,
    resourceType: rt,
    detail,
  });
  if (body === null) return failed(`Body exceeds ${MAX_BODY_BYTES} bytes`);
  let text: string;
  let json: unknown;
  try {
    text = utf8.decode(body);
    json = JSON.parse(text);
  } catch {
    return failed('Body is not valid JSON');
  }
  if (!isObject(json)) return failed('Body is not a JSON object');

  const eventIssue = issue('event', eventName, json.event);
  if (eventIssue) return failed(eventIssue);
  const event = json.event as string;
  const conn = connectionId.safeParse(json.connection_id).success ? (json.connection_id as string).trim() : null;
  const rawType = asString(json.resource_type);
  if (event === PING_EVENT) return { kind: 'ping', connectionId: conn, resourceType: rawType };
  if (!(STREAM_EVENTS as readonly string[]).includes(event)) {
    return { kind: 'ignored', event, connectionId: conn, resourceType: rawType, detail: 'unknown event type' };
  }
  const problem =
    issue('connection_id', connectionId, json.connection_id) ??
    issue('timestamp', isoTimestamp, json.timestamp) ??
    issue('data', data, json.data) ??
    (event === 'sync.complete' ? null : issue('resource_type', eventName, json.resource_type)) ??
    // The rest of the body: the applier stores parts of `data`, and an event in a stream must apply.
    (mayHoldUnstorableEscape(text) ? firstUnstorable(json) : null);
  if (problem) return failed(problem, event, conn, rawType);
  const knownType = rawType !== null && (RESOURCE_TYPES as readonly string[]).includes(rawType);
  if (event !== 'sync.complete' && !knownType) {
    return { kind: 'ignored', event, connectionId: conn, resourceType: rawType, detail: 'unknown resource type' };
  }
  return {
    kind: 'event',
    resourceType: rawType,
    envelope: {
      event: event as StreamEventType,
      connectionId: conn!,
      resourceType: knownType ? (rawType as ResourceType) : null,
      timestamp: withZone(json.timestamp as string),
      data: json.data as Record<string, unknown>,
    },
  };
}

/** Reads a stored stream event back (it was classified `event` when it arrived). */
export function readStreamEnvelope(body: Buffer): StreamEnvelope {
  const arrival = classifyArrival(body);
  if (arrival.kind !== 'event') throw new Error(`stored event is no longer a stream event: ${arrival.kind}`);
  return arrival.envelope;
}
