/**
 * A property's emissions and building-performance exposure for one calendar year, from its energy
 * of that year by utility type: what the analytics recompute stores per property (analytics README
 * "Emissions and building-performance exposure"). The same arithmetic as GET
 * /pm/properties/{id}/emissions and /building-performance, through the functions they use
 * (`tonsOf`, `gridOfZip`, `jurisdictionAt`, `buildingPerformance`); only the bundled references
 * (eGRID, GeoNames counties) are read, once per process.
 */
import type { ZipCounty } from '../utilities/counties';
import type { MeterUtilityType } from '../meters/units';
import { buildingPerformance, jurisdictionAt, placeOf, type OccupancyArea } from './building-performance';
import { bundledEgrid, type EgridReference } from './egrid';
import { tonsOf } from './emissions.calc';
import { bundledZipCounties } from './zip-counties';
import type { EnergyByType } from './ll97.calc';
import { gridOfZip } from './service';
import type { PropertyUseArea } from './property-types';

/** The utility types the location-based inventory has a factor for (README "Factors"). */
export const COUNTED_UTILITY_TYPES: readonly MeterUtilityType[] = ['electric', 'gas', 'steam', 'fuel_oil_2', 'fuel_oil_4'];

export interface ExposureProperty {
  name: string;
  zipCode: string;
  state: string;
  city: string;
  sqft: number | null;
  /** Its recorded occupancy groups and their gross floor areas (PUT /pm/properties/{id}/occupancy). */
  areas: OccupancyArea[];
  /** Its recorded Portfolio Manager property uses (PUT /pm/properties/{id}/property-uses): LL97's limits from 2026, BERDO's. */
  uses: PropertyUseArea[];
}

/** A projected building-performance penalty of the year: computed only where the standard's numbers are confirmed. */
export interface ProjectedPenalty {
  /** The standard's name, e.g. "New York City Local Law 97 of 2019 (Administrative Code § 28-320)". */
  standard: string;
  /** The compliance period the year falls in, e.g. "2024-2029". */
  period: string;
  /** The year's emissions by the standard's own coefficients, metric tons CO2e. */
  emissionsTons: number;
  limitTons: number;
  excessTons: number;
  penaltyCents: number;
}

export interface AnnualExposure {
  year: number;
  /** Location-based emissions (eGRID output rate, EPA Hub gas), kilograms CO2e: the year's tons rounded to the kilogram. */
  kgCo2e: number;
  /** Null where no standard applies or its numbers (the limit, the period) are not confirmed. */
  penalty: ProjectedPenalty | null;
}

export interface ExposureReferences {
  egrid: () => EgridReference;
  counties: () => ReadonlyMap<string, ZipCounty>;
}

/** The bundled references, each read on first use. */
export const bundledReferences: ExposureReferences = { egrid: () => bundledEgrid(), counties: bundledZipCounties };

/** Location-based kilograms CO2e of a year's energy at the property's ZIP code (types without a factor add nothing). */
function locationKg(zipCode: string, energy: EnergyByType, refs: ExposureReferences): number {
  const { grid } = gridOfZip(refs.egrid(), zipCode);
  let tons = 0;
  for (const type of COUNTED_UTILITY_TYPES) {
    const usage = energy[type];
    if (!usage) continue;
    const t = tonsOf(type, usage, grid);
    if ('tco2e' in t) tons += t.tco2e;
  }
  return Math.round(tons * 1000) + 0;
}

/** The property's standard for the year, when one applies with a computed penalty (null otherwise). */
function projectedPenalty(p: ExposureProperty, year: number, energy: EnergyByType, refs: ExposureReferences): ProjectedPenalty | null {
  const answer = buildingPerformance(jurisdictionAt(p, refs.counties()), year, energy, p.sqft, placeOf(p), p.areas, null, p.uses);
  for (const standard of answer.standards) {
    for (const period of standard.periods) {
      if (period.projected_penalty === null || period.limit_tco2e === null || period.emissions_tco2e === null) continue;
      // Only the period the year falls in: another period's figure (2030-2034 for a 2025 year) is a projection.
      const span = /^(\d{4})-(\d{4})$/.exec(period.period);
      if (span && (year < Number(span[1]) || year > Number(span[2]))) continue;
      return {
        standard: standard.standard,
        period: period.period,
        emissionsTons: period.emissions_tco2e,
        limitTons: period.limit_tco2e,
        excessTons: period.excess_tco2e ?? 0,
        penaltyCents: Math.round(period.projected_penalty * 100),
      };
    }
    // Boston: BERDO's alternative compliance payment on the year's excess, where the year is computed.
    const b = standard.berdo;
    if (b?.status === 'computed' && b.period && b.alternative_compliance_payment !== null) {
      return {
        standard: standard.standard,
        period: b.period,
        emissionsTons: b.emissions_tco2e!,
        limitTons: b.limit_tco2e!,
        excessTons: b.excess_tco2e ?? 0,
        penaltyCents: Math.round(b.alternative_compliance_payment * 100),
      };
    }
  }
  return null;
}

/** The property's location-based emissions and projected penalty of `year`, from that year's energy by utility type. */
export function annualExposure(
  p: ExposureProperty,
  year: number,
  energy: EnergyByType,
  refs: ExposureReferences = bundledReferences,
): AnnualExposure {
  return { year, kgCo2e: locationKg(p.zipCode, energy, refs), penalty: projectedPenalty(p, year, energy, refs) };
}
