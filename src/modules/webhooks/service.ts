import crypto from 'node:crypto';
import { AppError, unprocessable } from '../../platform/http/errors';
import { toPage, type PageQuery } from '../../platform/http/pagination';
import { createStreamApplier, type StreamApplierDeps } from './apply';
import { classifyArrival } from './envelope';
import { nestsDeeperThan } from './json-depth';
import { futureTimestampProblem } from './clock-skew';
import { createInboxWriter, refusesEvent } from './inbox-writer';
import { createWebhookRepository, type ArrivalRecord, type WebhookEventRow, type WebhookRepository } from './repository';

/** A pending event older than this is re-queued by the sweeper, whatever happened to its job. */
export const SWEEP_AFTER_MS = 10_000;
/**
 * The events received within one window share one job (same id: queued once), which starts after
 * the window has closed: so the job sees every event of its window, and applies them stream by
 * stream, several streams per transaction, instead of one job per event.
 */
export const KICK_WINDOW_MS = 500;

/** What the stream applier needs, which the service hands on, and the queue and accounts it uses itself. */
export interface WebhookServiceDeps extends Pick<StreamApplierDeps, 'db' | 'now' | 'logger' | 'handler'> {
  /**
   * Queues a `webhook-events` job (deterministic id: queued once; `delayMs` to start it later):
   * with a connection, that stream only; without, every stream with events pending.
   */
  enqueue(job: { connection_id?: string }, jobId: string, delayMs?: number): Promise<unknown>;
  /** The connections an account holds (the log shows only their events). */
  connectionsOf(ownerId: string): Promise<string[]>;
  /** The sweeper's other half: imports requested and still owed. */
  requeueOwedSyncs(olderThan: Date): Promise<number>;
}

export interface ReceivedBody {
  /** Null when the body was over the size limit (its hash and size are still known). */
  rawBody: Buffer | null;
  bodyBytes: number;
  sha256: string;
}

export type ReceiveAnswer =
  { status: 'ok' } | { status: 'accepted' | 'duplicate'; id: string } | { status: 'ignored' | 'failed'; id: string; detail: string };

const stamp = (d: Date) => d.toISOString().replace(/[-:.]/g, '');

/**
 * The log's `payload`: the body parsed, or its text when it is not JSON or nests too deep to be
 * answered as JSON (stored before the receiver refused such bodies; JSON.stringify would overflow).
 */
function parsePayload(body: Buffer | null): unknown {
  if (body === null) return null;
  const text = body.toString('utf8');
  if (nestsDeeperThan(body)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function presentLogEntry(e: WebhookEventRow) {
  return {
    id: e.id,
    received_at: e.receivedAt.toISOString(),
    event: e.event,
    resource_type: e.resourceType,
    connection_id: e.connectionId,
    status: e.status,
    detail: e.detail,
    payload: parsePayload(e.rawBody),
  };
}

export function presentDeadLetter(e: WebhookEventRow) {
  return {
    ...presentLogEntry(e),
    attempts: e.attempts,
    dead_lettered_at: e.deadLetteredAt ? e.deadLetteredAt.toISOString() : null,
  };
}

/**
 * Logs a body that is final on arrival (answered 200, so the provider does not retry it). Should
 * the database refuse one of its fields, it is logged without them; should it refuse even that,
 * the answer is a 422, never a 5xx: retrying would not help.
 */
async function storeFinal(
  repo: WebhookRepository,
  record: ArrivalRecord,
  status: 'ignored' | 'failed',
  detail: string,
): Promise<ReceiveAnswer> {
  let inserted: boolean;
  try {
    inserted = await repo.insertFinal(record, status, detail);
  } catch (err) {
    if (!refusesEvent(err)) throw err;
    try {
      inserted = await repo.insertFinal({ ...record, connectionId: null, event: null, resourceType: null }, status, detail);
    } catch (again) {
      if (refusesEvent(again)) throw new AppError(422, 'Event cannot be stored');
      throw again;
    }
  }
  if (!inserted) return { status: 'duplicate', id: (await repo.idsBySha([record.sha256])).get(record.sha256) ?? record.id };
  return { status, id: record.id, detail };
}

/** The `kick` of the webhook-events job, with what keeps it to once per window and its warnings to one per 10 s. */
function createKicker(deps: WebhookServiceDeps): () => void {
  /** Failed enqueues since the last warning: an outage of the queue is reported every 10 s, not per event. */
  let unqueued = 0;
  let lastWarnedAt = 0;
  /** The window this process last queued the job of: the queue is asked once per window. */
  let queuedWindow = -1;

  /**
   * Queues the job of the current window, once its events are committed; the job starts one
   * window after this one closes (margin for the clocks of other processes). A failure only
   * delays the events until the sweeper.
   */
  function kick(): void {
    const now = deps.now().getTime();
    const window = Math.floor(now / KICK_WINDOW_MS);
    if (queuedWindow === window) return;
    queuedWindow = window;
    const delayMs = (window + 2) * KICK_WINDOW_MS - now;
    deps.enqueue({}, `wh.${window}`, delayMs).catch((err: unknown) => {
      // Not queued after all: the next event of this window must try again.
      if (queuedWindow === window) queuedWindow = -1;
      unqueued += 1;
      if (Date.now() - lastWarnedAt < 10_000) return;
      deps.logger.warn({ err, events: unqueued }, 'could not queue webhook events; the sweeper will');
      lastWarnedAt = Date.now();
      unqueued = 0;
    });
  }
  return kick;
}

/**
 * The PMS webhook pipeline: the inbox (every signed delivery committed before it is answered),
 * the per-connection streams applied in order by the `webhook-events` queue, the sweeper that
 * re-queues whatever is still pending, the operators' replay, and the log.
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const repo = createWebhookRepository(deps.db);
  const applier = createStreamApplier({
    db: deps.db,
    now: deps.now,
    logger: deps.logger,
    handler: deps.handler,
    scheduleRetry: (connectionId, eventId, attempt, delayMs) =>
      deps.enqueue({ connection_id: connectionId }, `wh-retry.${eventId}.${attempt}`, delayMs),
    // Named by the time: two drains running out at the same instant need one continuation.
    continueLater: () => deps.enqueue({}, `wh-more.${stamp(deps.now())}`),
  });

  const kick = createKicker(deps);

  const inbox = createInboxWriter({
    db: deps.db,
    onStored: (stored) => {
      if (stored.length > 0) kick();
    },
  });

  return {
    /**
     * Stores a signed body and says what became of it. The answer comes only after the commit:
     * an error here (the database down) must reach the provider as a non-2xx so it retries.
     */
    async receive(body: ReceivedBody): Promise<ReceiveAnswer> {
      const arrival = classifyArrival(body.rawBody);
      const base: ArrivalRecord = {
        id: crypto.randomUUID(),
        sha256: body.sha256,
        rawBody: body.rawBody,
        bodyBytes: body.bodyBytes,
        receivedAt: deps.now(),
        connectionId: null,
        event: null,
        resourceType: arrival.resourceType,
      };
      if (arrival.kind === 'event') {
        const env = arrival.envelope;
        // A time from the future would freeze its record (every later event looks older): refused,
        // unstored, so the provider's retry is taken once the sender's clock is right.
        const future = futureTimestampProblem(env.timestamp, base.receivedAt);
        if (future) {
          deps.logger.warn(
            { sha256: body.sha256, connectionId: env.connectionId, timestamp: env.timestamp },
            'webhook event from the future refused',
          );
          throw unprocessable(future, 'timestamp');
        }
        const record = { ...base, connectionId: env.connectionId, event: env.event };
        const outcome = await inbox.append({ ...record, eventTimestamp: env.timestamp });
        if (outcome.kind === 'stored') return { status: 'accepted', id: outcome.id };
        if (outcome.kind === 'duplicate') return { status: 'duplicate', id: outcome.id ?? base.id };
        // The envelope's checks should have kept it out: still, the provider must not retry it forever.
        deps.logger.warn({ sha256: body.sha256, reason: outcome.reason }, 'webhook event refused by the database: logged failed');
        return storeFinal(repo, record, 'failed', `event cannot be stored: ${outcome.reason}`);
      }
      if (arrival.kind === 'ping') {
        await repo.insertFinal({ ...base, connectionId: arrival.connectionId, event: 'test.ping' }, 'success', null);
        return { status: 'ok' };
      }
      return storeFinal(repo, { ...base, connectionId: arrival.connectionId, event: arrival.event }, arrival.kind, arrival.detail);
    },

    /** The `webhook-events` job: one stream (a retry), or every stream with events pending. */
    drain: (connectionId?: string) => (connectionId === undefined ? applier.drainAll() : applier.drain(connectionId)),

    /** POST /admin/webhooks/{id}/replay. */
    async replay(eventId: string) {
      return presentDeadLetter(await applier.replay(eventId));
    },

    /**
     * The `webhook-sweep` job: queues every stream that still has an event pending after
     * `olderThanMs` (its job lost to a crash between commit and enqueue, a Redis that lost its
     * data, or retries used up while the database was down), and every import still owed.
     * Applying is idempotent, so a stream whose job was only slow loses nothing by a second one.
     */
    async sweep(olderThanMs = SWEEP_AFTER_MS): Promise<{ streams: number; imports: number }> {
      const now = deps.now();
      const before = new Date(now.getTime() - olderThanMs);
      const connections = await repo.connectionsWithPending(before, 10_000);
      if (connections.length > 0) await deps.enqueue({}, `wh-sweep.${stamp(now)}`);
      const imports = await deps.requeueOwedSyncs(before);
      if (connections.length > 0 || imports > 0) deps.logger.info({ streams: connections.length, imports }, 'sweeper re-queued owed work');
      return { streams: connections.length, imports };
    },

    /** GET /api/webhooks/logs: the caller's connections' events, newest first. */
    async logs(ownerId: string, q: PageQuery) {
      const { rows, total } = await repo.logOf(await deps.connectionsOf(ownerId), q);
      return toPage(rows.map(presentLogEntry), total, q);
    },

    /** GET /admin/webhooks/dead-letters: newest dead-lettered first. */
    async deadLetters(q: PageQuery) {
      const { rows, total } = await repo.deadLetters(q);
      return toPage(rows.map(presentDeadLetter), total, q);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
