import type { NewNotification } from '../notifications/public';
import type { RateAnalysis } from './rate-analysis.calc';

/** A property whose recommendation a tariff refresh changed. */
export interface AdviceChange {
  propertyId: string;
  propertyName: string;
  /** What the analysis before the refresh recommended, and what the re-run does, in words. */
  was: string;
  now: string;
}

/** Properties named in one notification; the rest are counted. */
export const NAMED_PROPERTIES = 10;

/** The recommendation in words: the tariff to move to, or staying on the current one. */
export function adviceOf(a: RateAnalysis): string {
  if (a.current_tariff && a.recommendation === a.current_tariff.id) return `stay on ${a.current_tariff.name}`;
  const alt = a.alternatives.find((t) => t.tariff_id === a.recommendation);
  return `move to ${alt?.name ?? a.recommendation}`;
}

/**
 * The properties whose advice changed: a re-run analysis (`after`) whose recommendation differs from
 * the property's analysis before the refresh (`before`). A property without one before is not a change.
 */
export function adviceChanges(
  before: ReadonlyMap<string, RateAnalysis>,
  after: readonly RateAnalysis[],
  names: ReadonlyMap<string, string>,
): AdviceChange[] {
  const changes: AdviceChange[] = [];
  for (const a of after) {
    const b = before.get(a.property_id);
    if (!b || b.recommendation === a.recommendation) continue;
    changes.push({
      propertyId: a.property_id,
      propertyName: names.get(a.property_id) ?? a.property_id,
      was: adviceOf(b),
      now: adviceOf(a),
    });
  }
  return changes.sort((x, y) => (x.propertyName < y.propertyName ? -1 : x.propertyName > y.propertyName ? 1 : 0));
}

/**
 * One notification per account after a catalog refresh (`runId`) changed the advice of some of its
 * properties, naming them (the first NAMED_PROPERTIES, by name); null when none changed. Its dedupe
 * key is the run's: a retried job notifies once.
 */
export function refreshNotification(userId: string, runId: string, changes: readonly AdviceChange[]): NewNotification | null {
  if (changes.length === 0) return null;
  const named = changes
    .slice(0, NAMED_PROPERTIES)
    .map((c) => `${c.propertyName}: now ${c.now} (was: ${c.was})`)
    .join('; ');
  const more = changes.length > NAMED_PROPERTIES ? `; and ${changes.length - NAMED_PROPERTIES} more` : '';
  const count = changes.length === 1 ? '1 property' : `${changes.length} properties`;
  return {
    userId,
    type: 'tariff_refresh_advice',
    propertyId: changes.length === 1 ? changes[0]!.propertyId : null,
    message: `The tariff catalog was refreshed from URDB and the rate advice changed for ${count}: ${named}${more}`,
    dedupeKey: `tariff-refresh-advice:${runId}`,
  };
}
