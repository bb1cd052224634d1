import type { Db } from '../../../platform/db/client';
import type { Logger } from '../../../platform/logger';
import { badRequest, conflict, notFound } from '../../../platform/http/errors';
import { fromCents, toCents } from '../../../platform/money';
import { UnrecoverableError } from '../../../platform/queue/policy';
import { CircuitBreaker } from '../../pms/breaker';
import { PmsChargeError, type PmsChargesClient } from '../../pms/charges-client';
import { NO_PMS } from '../calculate-from-pms';
import { createPostingRepository, type LineKey, type PostingRepository, type PostingRow } from './repository';
import {
  chargeDate,
  chargeDescription,
  chargeLines,
  idempotencyKey,
  lineId,
  postingStateOf,
  type ChargeLine,
  type PostableCalculation,
} from './lines';
import type { PostingAction, PostingState } from './schemas';
import type { EventOutbox } from '../../events/public';
import { postingEvents } from './events';

export const NOT_ACTIVE = 'Only an active calculation can be posted';
export const ALREADY_POSTED = 'Calculation is already posted';
export const NOTHING_TO_POST = 'Calculation has no charges to post (every unit is vacant or charged 0)';
export const NOTHING_TO_REVERSE = 'Nothing posted to reverse';
export const ALREADY_REVERSED = 'Calculation is already reversed';
export const VOIDED = 'The calculation was voided before this charge was sent';
export const NEVER_CHARGED = 'the charge was never made (the provider refused it): nothing to reverse';
export const WAITING_FOR_CHARGE = 'waiting for the answer on the charge it reverses (its outcome is unknown)';
export const notPmsUnit = (unitId: string) => `unit ${unitId} is not a unit of the linked PMS property`;

/** Charges in flight at once per job: the provider's round trips overlap, without flooding it. */
const CONCURRENCY = 10;
/** Lines failing in a row (every try of each) that end a job attempt: the provider is down, the job's back-off waits for it. */
const STOP_AFTER_FAILURES = 5;
/** Pending lines untouched this long have lost their job (a crash, a Redis that lost its data): the sweeper queues them again. */
export const SWEEP_AFTER_MS = 60_000;

export interface RubsPostingJob {
  calculation_id: string;
  action: PostingAction;
}

export interface RubsPostingDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  /** The stored calculation of its owner (404 Calculation not found otherwise): its unit bills are the charges. */
  billing: { calculation(ownerId: string, calculationId: string): Promise<PostableCalculation> };
  /** The property's PMS link, null when it has none. */
  links: { linkOf(propertyId: string): Promise<{ connectionId: string; pmsPropertyId: string } | null> };
  charges: PmsChargesClient;
  /** Queues one `rubs-posting` job; jobs of one calculation run one at a time (the ordering key). */
  enqueue(job: RubsPostingJob, opts: { jobId: string; orderingKey: string }): Promise<unknown>;
  concurrency?: number;
  /** A run's outcome is an event: the calculation posted, or lines failed (events.ts). */
  events?: EventOutbox;
}

export interface RunOptions {
  /** The job's last attempt: lines the provider still fails are failed, not left pending for a retry. */
  finalAttempt: boolean;
}

/** Runs `fn` over `items`, `limit` at a time; the first error stops new items, and is thrown once the running ones end. */
async function inPool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let error: { err: unknown } | undefined;
  const runner = async () => {
    while (!error && next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (err) {
        error ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  if (error) throw error.err;
}

async function postingState(deps: RubsPostingDeps, repo: PostingRepository, calculationId: string): Promise<PostingState> {
  return postingStateOf(await repo.lines(calculationId));
}

/** Queues the job that sends what is pending; a job id already known (the same pending lines) adds nothing. */
async function enqueueRun(
  deps: RubsPostingDeps,
  repo: PostingRepository,
  calculationId: string,
  action: PostingAction,
  jobIdSuffix?: string,
): Promise<void> {
  const oldest = await repo.oldestPending(calculationId, action);
  if (oldest === null) return;
  const jobId = `rubs-posting.${calculationId}.${action}.${jobIdSuffix ?? oldest}`;
  try {
    await deps.enqueue({ calculation_id: calculationId, action }, { jobId, orderingKey: `rubs-posting.${calculationId}` });
  } catch (err) {
    // The lines are stored pending: the sweeper queues them once the queue is back.
    deps.logger.warn({ err, calculationId, action }, 'could not queue a RUBS posting; the sweeper will');
  }
}

/**
 * Of `charges`, those without an `action` line yet; a 409 `done` when there are none and every line of `action` is
 * posted (else the failed ones are still to be sent again).
 */
function chargesWithoutLine<T extends { unitId: string; occupancy: number }>(
  existing: PostingRow[],
  action: PostingAction,
  charges: T[],
  done: string,
): T[] {
  const ofAction = existing.filter((r) => r.action === action);
  const known = new Set(ofAction.map(lineId));
  const fresh = charges.filter((c) => !known.has(lineId(c)));
  if (fresh.length === 0 && ofAction.every((r) => r.status === 'posted')) throw conflict(done);
  return fresh;
}

/** Post: a pending line per charge not posted yet (new, or failed before). */
async function preparePost(txRepo: PostingRepository, calculation: PostableCalculation, status: string, existing: PostingRow[], now: Date) {
  if (status !== 'active') throw conflict(NOT_ACTIVE);
  const lines = chargeLines(calculation);
  if (lines.length === 0) throw conflict(NOTHING_TO_POST);
  const fresh = chargesWithoutLine(existing, 'post', lines, ALREADY_POSTED);
  await txRepo.insertLines(
    calculation.id,
    fresh.map((l) => ({ unitId: l.unitId, occupancy: l.occupancy, action: 'post', amount: fromCents(l.cents) })),
    now,
  );
  await txRepo.retryFailed(calculation.id, 'post', now);
}

/**
 * Reverse: a pending reversing line (the amount negated) per charge posted, or whose outcome is unknown, not
 * reversed yet. An unknown charge is first sent again under its own key (the provider answers with the charge it
 * made, or makes it), and its reversal follows that answer: a tenant is never credited for a charge never made.
 */
async function prepareReverse(txRepo: PostingRepository, calculationId: string, existing: PostingRow[], now: Date) {
  const posted = existing.filter((r) => r.action === 'post' && (r.status === 'posted' || r.status === 'unknown'));
  if (posted.length === 0) throw conflict(NOTHING_TO_REVERSE);
  await txRepo.resend(
    calculationId,
    posted.filter((r) => r.status === 'unknown').map((r) => ({ unitId: r.unitId, occupancy: r.occupancy, action: 'post' })),
    now,
  );
  const fresh = chargesWithoutLine(existing, 'reverse', posted, ALREADY_REVERSED);
  await txRepo.insertLines(
    calculationId,
    fresh.map((r) => ({ unitId: r.unitId, occupancy: r.occupancy, action: 'reverse', amount: -r.amount })),
    now,
  );
  await txRepo.retryFailed(calculationId, 'reverse', now);
}

/** Sends one line and writes the answer; `done` false when it is left pending (the provider kept failing, or is taken to be down). */
async function sendLine(
  deps: RubsPostingDeps,
  repo: PostingRepository,
  calculation: PostableCalculation,
  link: { connectionId: string; pmsPropertyId: string },
  pmsUnitId: string,
  line: ChargeLine,
  key: LineKey,
  amountCents: number,
  breaker: CircuitBreaker,
): Promise<{ done: boolean; reason?: string }> {
  const record = (outcome: Parameters<PostingRepository['record']>[2]) => repo.record(calculation.id, key, outcome, deps.now());
  if (!breaker.tryAcquire()) return { done: false };
  try {
    const posted = await deps.charges.postCharge(idempotencyKey(calculation.id, key), {
      connection_id: link.connectionId,
      property_id: link.pmsPropertyId,
      unit_id: pmsUnitId,
      resident_name: line.bill.tenant_name,
      amountCents,
      description: chargeDescription(calculation, line.bill, key.action),
      charge_date: chargeDate(calculation),
    });
    breaker.success();
    await record({ status: 'posted', providerChargeId: posted.id, error: null, tries: posted.tries });
    return { done: true };
  } catch (err) {
    if (!(err instanceof PmsChargeError)) throw err;
    if (err.final) {
      breaker.neutral();
      // A refusal after a call that may have made the charge leaves its outcome unknown, not failed.
      await record({ status: err.ambiguous ? 'unknown' : 'failed', error: err.reason, tries: err.tries });
      return { done: true };
    }
    breaker.failure();
    await record({ status: 'pending', error: err.reason, tries: err.tries });
    return { done: false, reason: err.reason };
  }
}

/**
 * The run's events, after its lines are written (one by one, as the provider answers: not in one
 * transaction with them). A failure to write them is logged, never the run's outcome.
 */
async function emitOutcome(deps: RubsPostingDeps, repo: PostingRepository, run: Parameters<typeof postingEvents>[0]): Promise<void> {
  if (!deps.events) return;
  try {
    const events = postingEvents(run, await repo.lines(run.calculationId));
    if (events.length === 0) return;
    await deps.events.emit(events);
    await deps.events.deliverSoon();
  } catch (err) {
    deps.logger.error({ err, calculationId: run.calculationId }, 'could not write the events of a RUBS posting run');
  }
}

/** A run's lines: what run() documents, for a calculation that exists (`head`). */
async function runLines(
  deps: RubsPostingDeps,
  repo: PostingRepository,
  calculationId: string,
  action: PostingAction,
  opts: RunOptions,
  head: { propertyId: string; ownerId: string; status: string },
): Promise<void> {
  const pending = await repo.claimPending(calculationId, action, deps.now());
  if (pending.length === 0) return;
  const link = await deps.links.linkOf(head.propertyId);
  if (!link || !deps.charges.configured) {
    await repo.failPending(calculationId, action, NO_PMS, deps.now(), true);
    return;
  }
  if (action === 'post' && head.status === 'void') {
    await repo.failPending(calculationId, action, VOIDED, deps.now(), true);
    return;
  }
  const calculation = await deps.billing.calculation(head.ownerId, calculationId);
  const lines = new Map(chargeLines(calculation).map((l) => [lineId(l), l]));
  // A reversal is sent only for a charge the provider confirmed; one never made is not reversed, one unknown waits.
  const postStatus =
    action === 'reverse'
      ? new Map((await repo.lines(calculationId)).filter((r) => r.action === 'post').map((r) => [lineId(r), r.status]))
      : null;
  let waiting = 0;
  const pmsIds = await repo.pmsUnitIds(head.propertyId, [...new Set(pending.map((r) => r.unitId))]);
  const breaker = new CircuitBreaker({ threshold: STOP_AFTER_FAILURES, openMs: Number.POSITIVE_INFINITY });
  let unsent = 0;
  let lastReason: string | undefined;

  await inPool(pending, deps.concurrency ?? CONCURRENCY, async (row) => {
    const key: LineKey = { unitId: row.unitId, occupancy: row.occupancy, action };
    const line = lines.get(lineId(row));
    const pmsUnitId = pmsIds.get(row.unitId);
    if (!line || pmsUnitId === undefined) {
      const error = line ? notPmsUnit(row.unitId) : `unit ${row.unitId} has no charge in the calculation`;
      await repo.record(calculationId, key, { status: 'failed', error, tries: 0 }, deps.now());
      return;
    }
    const charge = postStatus?.get(lineId(row));
    if (postStatus && charge === 'failed') {
      await repo.record(calculationId, key, { status: 'failed', error: NEVER_CHARGED, tries: 0 }, deps.now());
      return;
    }
    if (postStatus && charge !== 'posted') {
      waiting += 1;
      return;
    }
    const result = await sendLine(deps, repo, calculation, link, pmsUnitId, line, key, toCents(row.amount), breaker);
    if (!result.done) {
      unsent += 1;
      lastReason = result.reason ?? lastReason;
    }
  });

  if (waiting > 0) unsent += waiting;
  if (unsent === 0) return;
  const reason = lastReason ?? (waiting > 0 ? WAITING_FOR_CHARGE : 'the provider kept failing');
  if (opts.finalAttempt) {
    const failed = await repo.failPending(calculationId, action, `not sent: the provider kept failing (${reason})`, deps.now(), false);
    deps.logger.warn({ calculationId, action, failed, reason }, 'RUBS posting: lines failed after the last attempt');
    throw new UnrecoverableError(`${failed} ${action} lines of calculation ${calculationId} failed after the last attempt: ${reason}`);
  }
  throw new Error(`${unsent} ${action} lines of calculation ${calculationId} not posted yet (${reason}); the job will retry`);
}

/**
 * Posting a calculation's charges to the tenants' ledgers in the PMS, and reversing them (README
 * "Posting to the PMS ledger"). A request writes one `rubs_postings` line per charge, pending, and
 * queues a `rubs-posting` job; the job sends the pending lines to the provider with an
 * Idempotency-Key per line and writes each answer. A line is sent again only while it is not
 * posted, always under the same key, so the provider creates each charge once however often a job
 * runs, is retried or is killed half-way.
 */
export function createRubsPostingService(deps: RubsPostingDeps) {
  const repo = createPostingRepository(deps.db);

  return {
    postingState: (calculationId: string): Promise<PostingState> => postingState(deps, repo, calculationId),

    /**
     * POST /billing/calculations/{id}/post and /reverse: checks, writes the lines to send (pending)
     * under the calculation's row lock, queues the job, and answers the posting as it now is.
     * Errors in this order: 404 Calculation not found, 400 No PMS integration configured for this
     * property, then 409 (post: not active, no charges, already posted; reverse: nothing posted,
     * already reversed). Asking again while lines are pending only queues their job again.
     */
    async request(ownerId: string, calculationId: string, action: PostingAction): Promise<PostingState> {
      const calculation = await deps.billing.calculation(ownerId, calculationId);
      const link = await deps.links.linkOf(calculation.property_id);
      if (!link || !deps.charges.configured) throw badRequest(NO_PMS);
      const now = deps.now();
      await deps.db.transaction(async (tx) => {
        const txRepo = createPostingRepository(tx);
        const status = await txRepo.lockCalculation(calculationId);
        if (status === null) throw notFound('Calculation not found');
        const existing = await txRepo.lines(calculationId);
        if (action === 'post') await preparePost(txRepo, calculation, status, existing, now);
        else await prepareReverse(txRepo, calculationId, existing, now);
      });
      // A reversal of charges whose outcome was unknown waits for their answer: their post job first (jobs of one
      // calculation run one at a time, in order).
      if (action === 'reverse') await enqueueRun(deps, repo, calculationId, 'post');
      await enqueueRun(deps, repo, calculationId, action);
      return postingState(deps, repo, calculationId);
    },

    /**
     * The `rubs-posting` job: sends the action's pending lines, `concurrency` at a time. A 4xx (or a
     * unit the PMS property does not have) fails the line at once; a 5xx, a time-out or a network
     * error is tried 3 times by the client, then the line stays pending with the reason and the job
     * throws to be retried with back-off; on the final attempt such lines fail with their reason.
     * Lines failing in a row end the attempt early (the provider is down: no point sending the rest).
     */
    async run(calculationId: string, action: PostingAction, opts: RunOptions): Promise<void> {
      const head = await repo.calculationHead(calculationId);
      if (!head) return; // deleted: its lines went with it
      const startedAt = deps.now();
      try {
        await runLines(deps, repo, calculationId, action, opts, head);
      } finally {
        await emitOutcome(deps, repo, { calculationId, propertyId: head.propertyId, ownerId: head.ownerId, action, startedAt });
      }
    },

    /**
     * The sweeper's part (every webhook-sweep): queues again the postings whose pending lines have
     * been untouched for `olderThanMs` and at least SWEEP_AFTER_MS (a job lost to a crash, or to a
     * Redis that lost its data). A job that was only slow loses nothing: jobs of one calculation
     * run one at a time, and a line posted is never sent again.
     */
    async requeueOwed(olderThanMs = SWEEP_AFTER_MS, limit = 1000): Promise<number> {
      const now = deps.now();
      const before = new Date(now.getTime() - Math.max(olderThanMs, SWEEP_AFTER_MS));
      const owed = await repo.owedPostings(before, limit);
      for (const o of owed) await enqueueRun(deps, repo, o.calculationId, o.action, `sweep${now.getTime()}`);
      if (owed.length > 0) deps.logger.info({ postings: owed.length }, 'sweeper re-queued RUBS postings');
      return owed.length;
    },
  };
}

export type RubsPostingService = ReturnType<typeof createRubsPostingService>;
