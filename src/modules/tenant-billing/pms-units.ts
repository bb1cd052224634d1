import type { PmsUnitData } from '../pms/unit-data';
import type { BillingUnit } from './rubs.types';

/** tenant_name is at most this long in a calculation. */
const MAX_TENANT_NAME = 200;

/**
 * The PMS's units as RUBS units: `sqft` is the sqft factor, the lease's
 * `occupant_count` the occupant factor, `status == "vacant"` marks a vacant unit (0 occupants),
 * the lease's dates bound the days an occupied unit was occupied in the period. A lease that
 * ended before the period while the PMS still reports the unit occupied is a holdover: the
 * tenant is still there, so no move-out is passed. Pure.
 */
export function toBillingUnits(units: readonly PmsUnitData[], periodStart: string): BillingUnit[] {
  return units.map((u) => {
    const lease = u.status === 'occupied' ? u.current_lease : null;
    const moveIn = lease?.start_date ?? null;
    const end = lease?.end_date ?? null;
    const moveOut = end !== null && end >= periodStart && (moveIn === null || end >= moveIn) ? end : null;
    return {
      unit_id: u.id,
      tenant_name: (lease?.resident_name ?? '').slice(0, MAX_TENANT_NAME),
      sqft: u.sqft,
      occupant_count: u.status === 'vacant' ? (u.current_lease?.occupant_count ?? 0) : (lease?.occupant_count ?? null),
      is_vacant: u.status === 'vacant',
      move_in: moveIn,
      move_out: moveOut,
    };
  });
}
