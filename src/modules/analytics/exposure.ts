import {
  annualExposure,
  type EnergyByType,
  type OccupancyArea,
  type OccupancyGroup,
  type ProjectedPenalty,
  type PropertyType,
  type PropertyUseArea,
} from '../emissions/public';
import type { MeterUtilityType } from '../meters/units';
import type { NewNotification } from '../notifications/public';
import type { MonthIndex } from './months';
import type { MetricsInputRow } from './rollups-sql';

/**
 * Emissions and building-performance exposure in the recompute (README "Emissions and
 * building-performance exposure"): each property's location-based emissions and projected penalty
 * of the latest complete calendar year, computed by the emissions module from the year's rollups,
 * and the one notification of a penalty that appears. Pure.
 */

/** The notification type of a projected building-performance penalty. */
export const PENALTY_NOTIFICATION = 'building_performance_penalty';

/** The latest complete calendar year at a month: the year before the month's year (a year's bills are complete after it). */
export const emissionsYearOf = (month: MonthIndex): number => Math.floor(month / 12) - 1;

/** What the metrics row stores of the exposure. */
export interface ExposureFields {
  emissions_year: number;
  emissions_kg: number;
  penalty_period: string | null;
  penalty_cents: number | null;
  penalty_alerts: number;
}

/** The year's energy by utility type in each type's common unit: the calendarised rollups of its twelve months, summed. */
export function yearEnergy(series: MetricsInputRow['series'], year: number): EnergyByType {
  const milli = new Map<MeterUtilityType, number>();
  for (const [month, type, , usageMilli] of series ?? []) {
    if (Math.floor(month / 12) !== year) continue;
    const t = type as MeterUtilityType;
    milli.set(t, (milli.get(t) ?? 0) + Number(usageMilli));
  }
  const energy: EnergyByType = {};
  for (const [type, m] of milli) energy[type] = m / 1000;
  return energy;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const tons = (t: number) => t.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** The notification of a projected penalty: the standard, the year and period, emissions against the limit, the excess and the penalty. */
export function penaltyNotification(
  ownerId: string,
  row: Pick<MetricsInputRow, 'id' | 'name'>,
  year: number,
  p: ProjectedPenalty,
  alert: number,
): NewNotification {
  return {
    userId: ownerId,
    type: PENALTY_NOTIFICATION,
    propertyId: row.id,
    message:
      `${row.name}: projected ${p.standard} penalty of ${usd.format(p.penaltyCents / 100)} for ${year} (${p.period} period): ` +
      `${tons(p.emissionsTons)} t CO2e against a limit of ${tons(p.limitTons)} t, ${tons(p.excessTons)} t over`,
    // One per appearance of a penalty: the n-th time this property's projection went from none to above zero.
    dedupeKey: `building-performance-penalty:${row.id}:${p.period}:${alert}`,
  };
}

/**
 * A property's exposure of the latest complete year at `month`, and the notification to raise: one
 * when its projected penalty is above zero and the stored one (of the same compliance period) was
 * not, so a recompute that finds the same penalty again raises nothing, and a penalty that was
 * cleared (no excess, or no longer computed) and comes back raises a new one.
 */
export function propertyExposure(
  ownerId: string,
  row: MetricsInputRow,
  month: MonthIndex,
): { fields: ExposureFields; notification: NewNotification | null } {
  const year = emissionsYearOf(month);
  const areas: OccupancyArea[] = (row.occupancy ?? []).map(([group, sqft]) => ({ group: group as OccupancyGroup, sqft }));
  const uses: PropertyUseArea[] = (row.property_uses ?? []).map(([type, sqft]) => ({ type: type as PropertyType, sqft }));
  const exposure = annualExposure(
    { name: row.name, zipCode: row.zip_code, state: row.state, city: row.city, sqft: row.sqft, areas, uses },
    year,
    yearEnergy(row.series, year),
  );
  const p = exposure.penalty;
  const stored = row.stored_penalty_alerts ?? 0;
  const wasOver = p !== null && row.stored_penalty_period === p.period && Number(row.stored_penalty_cents ?? 0) > 0;
  const raise = p !== null && p.penaltyCents > 0 && !wasOver;
  const alerts = raise ? stored + 1 : stored;
  return {
    fields: {
      emissions_year: year,
      emissions_kg: exposure.kgCo2e,
      penalty_period: p?.period ?? null,
      penalty_cents: p?.penaltyCents ?? null,
      penalty_alerts: alerts,
    },
    notification: raise ? penaltyNotification(ownerId, row, year, p, alerts) : null,
  };
}
