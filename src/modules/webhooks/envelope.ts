import { z } from 'zod';
import '../../platform/http/validate'; // the service's validation messages, in every process

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

/** What the receiver decides about a signed body before storing it. */
export type Arrival =
  | { kind: 'ping'; connectionId: string | null }
  | { kind: 'event'; envelope: StreamEnvelope }
  | { kind: 'ignored' | 'failed'; event: string | null; connectionId: string | null; resourceType: string | null; detail: string };

const noNul = (v: string) => !v.includes('\u0000');
const connectionId = z.string().trim().min(1).max(200).refine(noNul, { error: 'must not contain NUL characters' });
const eventName = z.string().min(1).max(100).refine(noNul, { error: 'must not contain NUL characters' });
const isoTimestamp = z.iso.datetime({
  offset: true, local: true, error: (iss) => (iss.input === undefined ? undefined : 'invalid ISO 8601 date-time'),
});
const data = z.looseObject({});

function issue(field: string, schema: z.ZodType, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : `${field}: ${parsed.error.issues[0].message}`;
}

/** Refuses bytes that are not UTF-8 (rather than replacing them): such a body is not JSON. */
const utf8 = new TextDecoder('utf-8', { fatal: true });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string field kept in the log only if it can be stored as it is. */
const asString = (v: unknown) => (eventName.safeParse(v).success ? (v as string) : null);
const withZone = (ts: string) => (/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(ts) ? ts : `${ts}Z`);

/**
 * Classifies a signed body (null: over MAX_BODY_BYTES): what is logged, and whether it enters
 * its connection's stream. Never throws: a provider must not retry garbage forever, so every
 * malformed body is a `failed` log entry with its reason.
 */
export function classifyArrival(body: Buffer | null): Arrival {
  const failed = (detail: string, event: string | null = null, conn: string | null = null, rt: string | null = null): Arrival =>
    ({ kind: 'failed', event, connectionId: conn, resourceType: rt, detail });
  if (body === null) return failed(`Body exceeds ${MAX_BODY_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(body));
  } catch {
    return failed('Body is not valid JSON');
  }
  if (!isObject(json)) return failed('Body is not a JSON object');

  const eventIssue = issue('event', eventName, json.event);
  if (eventIssue) return failed(eventIssue);
  const event = json.event as string;
  const conn = connectionId.safeParse(json.connection_id).success ? (json.connection_id as string).trim() : null;
  const rawType = asString(json.resource_type);
  if (event === PING_EVENT) return { kind: 'ping', connectionId: conn };
  if (!(STREAM_EVENTS as readonly string[]).includes(event)) {
    return { kind: 'ignored', event, connectionId: conn, resourceType: rawType, detail: 'unknown event type' };
  }
  const problem = issue('connection_id', connectionId, json.connection_id)
    ?? issue('timestamp', isoTimestamp, json.timestamp)
    ?? issue('data', data, json.data)
    ?? (event === 'sync.complete' ? null : issue('resource_type', eventName, json.resource_type));
  if (problem) return failed(problem, event, conn, rawType);
  const knownType = rawType !== null && (RESOURCE_TYPES as readonly string[]).includes(rawType);
  if (event !== 'sync.complete' && !knownType) {
    return { kind: 'ignored', event, connectionId: conn, resourceType: rawType, detail: 'unknown resource type' };
  }
  return {
    kind: 'event',
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
