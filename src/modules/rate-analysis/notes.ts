/**
 * What a rate analysis says of the tariff it compares from (service.ts), in `assumptions`: when the current tariff's own
 * limits do not admit the property, when its cost is implausibly low, and when the costs compared leave out supply.
 * Pure.
 */
import type { EligibilityVerdict } from '../tariffs/eligibility';
import type { ServiceType } from '../tariffs/tariff-class';
import type { Tariff } from '../tariffs/tariff.model';

export interface ComparedFrom {
  currentTariff: Pick<Tariff, 'name' | 'serviceType'> | null;
  /** The eligibility verdict of the current tariff for the property (null without one). */
  currentFit: EligibilityVerdict | null;
  /** Why the current tariff's cost fails the plausibility check (plausibility.ts), or null. */
  currentImplausible: string | null;
  /** The service type compared: the current tariff's, or without one the customer's (customer.ts). */
  serviceType: ServiceType;
  /** The property has a supply price or a supply contract, priced beside delivery-only tariffs. */
  supplyPriced: boolean;
  /** The compared utility's name, for the case without a current tariff. */
  utilityName: string;
}

export function comparedFromNotes(c: ComparedFrom): string[] {
  const notes: string[] = [];
  const current = c.currentTariff;
  // Advice to stay is only as good as the current tariff's fit: its own limits may not admit the property (issue 45).
  if (current && c.currentFit?.status === 'excluded' && !c.currentFit.reason.startsWith('closed')) {
    notes.push(
      `The current tariff ${current.name} may not admit the property: ${c.currentFit.reason}; the utility may move it to ` +
        'another schedule, so its cost here, and any advice to stay on it, may not hold',
    );
  }
  if (current && c.currentImplausible) {
    notes.push(
      `The current tariff ${current.name} is ${c.currentImplausible}: its cost here is too low, so the savings against it, ` +
        'and any advice to stay on it, may not hold',
    );
  }
  if (c.supplyPriced || c.serviceType !== 'delivery_only') return notes;
  if (current) {
    notes.push(
      `${current.name} is delivery only and the property has no supply_rate_per_kwh or supply contract: every cost here leaves ` +
        'out the energy supply (set either to compare whole bills)',
    );
  } else {
    // Without a current tariff the property is compared as a bundled customer where the utility has a current bundled
    // tariff; where it has none (Baltimore Gas & Electric's current records are its "(Unbundled)" schedules), what is
    // compared and recommended is delivery alone, which the answer must say.
    notes.push(
      `${c.utilityName} has no current bundled tariff in the catalog: the tariffs compared, and the one recommended, are delivery ` +
        "only, and every cost here leaves out the energy supply (set the property's supply_rate_per_kwh or supply contract to compare " +
        'whole bills, or its tariff_id)',
    );
  }
  return notes;
}
