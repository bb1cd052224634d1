/**
 * The events of a posting run (events README "Events"): `billing.calculation.posted` once every
 * charge of the calculation is on the PMS ledger (once per calculation), `billing.posting.failed`
 * for the lines a run failed. Pure: the service reads the lines after the run and writes these.
 */
import { toCents } from '../../../platform/money';
import type { NewEvent } from '../../events/public';
import type { PostingAction } from './schemas';
import type { PostingRow } from './repository';

export function postingEvents(
  run: { calculationId: string; propertyId: string; ownerId: string; action: PostingAction; startedAt: Date },
  lines: readonly PostingRow[],
): NewEvent[] {
  const { calculationId, propertyId, ownerId, action, startedAt } = run;
  const out: NewEvent[] = [];
  const failed = lines.filter((l) => l.action === action && l.status === 'failed' && l.updatedAt >= startedAt);
  if (failed.length > 0) {
    out.push({
      ownerId,
      type: 'billing.posting.failed',
      dedupeKey: `billing.posting.failed:${calculationId}:${action}:${startedAt.toISOString()}`,
      data: {
        calculation_id: calculationId,
        property_id: propertyId,
        action,
        failed_lines: failed.map((l) => ({ unit_id: l.unitId, amount: l.amount, error: l.error })),
      },
    });
  }
  const posts = lines.filter((l) => l.action === 'post');
  if (action === 'post' && posts.length > 0 && posts.every((l) => l.status === 'posted')) {
    out.push({
      ownerId,
      type: 'billing.calculation.posted',
      dedupeKey: `billing.calculation.posted:${calculationId}`,
      data: {
        calculation_id: calculationId,
        property_id: propertyId,
        lines: posts.length,
        amount: posts.reduce((sum, l) => sum + toCents(l.amount), 0) / 100,
      },
    });
  }
  return out;
}
