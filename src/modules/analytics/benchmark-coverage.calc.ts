import { METER_UTILITY_TYPES, UNIT_FAMILIES, type MeterUtilityType } from '../meters/units';
import type { BenchmarkMetric } from './benchmarks.calc';
import { COUNTED_UTILITY_TYPES } from '../emissions/public';

/**
 * What a property's benchmark figure covers (README "Benchmarks", "What the meters cover"). A figure
 * of a building is only comparable with other buildings' when the meters behind it measure the whole
 * building (ENERGY STAR Portfolio Manager benchmarks whole properties: a property's meters must
 * total its whole energy use). A meter of the common areas or of one tenant's space gives a figure
 * of part of the building: such a property is left out of the ranking and listed apart.
 */

/** A meter of the property that covers part of the building and has bills in the annual figure's window. */
export interface PartialMeter {
  meter_id: string;
  name: string;
  utility_type: string;
  covers: string;
}

/**
 * The utility types whose bills make a metric: every type for cost, electric for kWh, the energy types for site EUI, the types
 * with a location-based emission factor for kg CO2e.
 */
export function metricUtilityTypes(metric: BenchmarkMetric): readonly MeterUtilityType[] {
  switch (metric) {
    case 'cost_per_sqft':
    case 'cost_per_unit':
      return METER_UTILITY_TYPES;
    case 'cost_per_kwh':
    case 'kwh_per_sqft':
      return ['electric'];
    case 'site_eui':
      return METER_UTILITY_TYPES.filter((t) => UNIT_FAMILIES[t].kbtuPerCommon !== null);
    case 'kg_co2e_per_sqft':
      return COUNTED_UTILITY_TYPES;
  }
}

/** The meters that make the property's figure of `metric` a figure of part of the building (none: it covers the whole). */
export function partialMetersOf(metric: BenchmarkMetric, meters: readonly PartialMeter[]): PartialMeter[] {
  const types: readonly string[] = metricUtilityTypes(metric);
  return meters.filter((m) => m.covers !== 'whole_building' && types.includes(m.utility_type));
}
