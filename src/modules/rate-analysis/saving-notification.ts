import type { PropertyRow } from '../properties/public';
import type { NewNotification } from '../notifications/public';
import type { NewEvent } from '../events/public';
import { recommendationSavingsCents, type RateAnalysis } from './rate-analysis.calc';

/** The notification of a saving the analysis found (deduplicated per property, recommendation and amount). */
export function savingNotification(row: PropertyRow, analysis: RateAnalysis): NewNotification | null {
  const savingsCents = recommendationSavingsCents(analysis);
  if (savingsCents === null || savingsCents <= 0) return null;
  const alt = analysis.alternatives.find((a) => a.tariff_id === analysis.recommendation)!;
  return {
    userId: row.ownerId,
    type: 'rate_savings',
    propertyId: row.id,
    message: `${row.name}: switching to ${alt.name} could save $${alt.annual_savings!.toFixed(2)} a year`,
    dedupeKey: `rate-savings:${row.id}:${analysis.recommendation}:${savingsCents}`,
  };
}

/** The event of a saving the analysis found, with the key of its notification (one per property, recommendation and amount). */
export function savingEvent(row: PropertyRow, analysis: RateAnalysis, note: NewNotification): NewEvent {
  const alt = analysis.alternatives.find((a) => a.tariff_id === analysis.recommendation)!;
  return {
    ownerId: row.ownerId,
    type: 'rate_analysis.savings_found',
    dedupeKey: note.dedupeKey ?? undefined,
    data: {
      property_id: row.id,
      property_name: row.name,
      recommended_tariff_id: alt.tariff_id,
      recommended_tariff_name: alt.name,
      annual_savings: alt.annual_savings!,
    },
  };
}
