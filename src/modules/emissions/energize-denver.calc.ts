/**
 * Energize Denver (Denver Revised Municipal Code chapter 10, article XIV, the High-Performance
 * Existing Buildings Program): a building's site energy use intensity for a calendar year against
 * its final site EUI target, blended over its Portfolio Manager property uses. Pure. Every number
 * is the city's text as read on 2026-11-28 (README "Energize Denver"); a number that could not be
 * confirmed is absent and the answer says so.
 */
import { UNIT_FAMILIES, type MeterUtilityType } from '../meters/units';
import type { EnergyByType } from './ll97.calc';
import type { PropertyType, PropertyUseArea } from './property-types';

/** Where each rule was read, on 2026-11-28. */
export const DENVER_SOURCES = {
  ordinance:
    'Denver Revised Municipal Code ch. 10, art. XIV (Ord. No. 1310-21, § 4, 11-22-21; Ord. No. 967-22): § 10-400(l) EUI, ' +
    '§ 10-404 targets and interim targets, § 10-407(d) civil penalty; text read 2026-11-28 in a public copy of the code ' +
    '(library.municode.com/co/denver/codes/code_of_ordinances?nodeId=TITIIREMUCO_CH10BUCO_ARTXIVHIPEEBU)',
  targets:
    'City and County of Denver, Energize Denver "Performance Requirements" (denvergov.org, Buildings 25,000 sq. ft. or Larger), ' +
    'table "EPA Portfolio Manager Building Type / 2030 Target site EUI (kBtu/sf/yr)", read 2026-11-28 (the current page heads its ' +
    'table "Final Target", Technical Guidance Appendix A; its rows were not legible in the copy read)',
  timeline:
    'City and County of Denver, Energize Denver "Rules and Technical Guidance" (denvergov.org), updates of April 1, 2025: interim ' +
    'and final target deadlines extended to 2028 and 2032, penalty rates cut in half, no building required to reduce its energy ' +
    'use by more than 42 %, no performance penalties before late 2029; read 2026-11-28',
  conversions:
    'ENERGY STAR Portfolio Manager site energy conversions: 1 kWh = 3.412 kBtu, 1 therm = 100 kBtu, district steam in kBtu ' +
    '(meters README "Units")',
} as const;

/** The final target year on the city's updated timeline (2030 as the ordinance was written). */
export const FINAL_TARGET_YEAR = 2032;
/** The single interim target year on the updated timeline (2024 and 2027 as written; 2025 and 2026 after the first extension). */
export const INTERIM_TARGET_YEAR = 2028;

/**
 * Final site EUI targets, kBtu/sf/yr, per Portfolio Manager property type, as the city's
 * Performance Requirements page lists them (`reduction` where the page says "30% EUI Reduction":
 * a target from the building's own baseline, which the service does not have). Only the rows
 * legible in the copy read (Adult Education to Other - Mall, alphabetically) are here: a type
 * after them, or one the page does not list, has no confirmed target and gets none.
 */
export const DENVER_FINAL_TARGETS: Partial<Record<PropertyType, number | 'reduction'>> = {
  'Adult Education': 37.2,
  'Ambulatory Surgical Center': 60.7,
  Aquarium: 'reduction',
  'Automobile Dealership': 42.8,
  'Bank Branch': 63.6,
  'Bar/Nightclub': 86.6,
  Barracks: 46.3,
  'Bowling Alley': 50.5,
  'College/University': 60.6,
  'Convention Center': 'reduction',
  Courthouse: 51.2,
  'Distribution Center': 25.4,
  'Enclosed Mall': 45.6,
  'Fast Food Restaurant': 311.3,
  'Financial Office': 48.3,
  'Fire Station': 45.6,
  'Fitness Center/Health Club/Gym': 50.5,
  'Food Sales': 144.3,
  'Food Service': 76.9,
  'Hospital (General Medical & Surgical)': 165.2,
  Hotel: 61.1,
  'Ice/Curling Rink': 'reduction',
  'Indoor Arena': 'reduction',
  'K-12 School': 48.0,
  Laboratory: 153.9,
  Library: 52.9,
  'Lifestyle Center': 66.6,
  'Mailing Center/Post Office': 46.5,
  'Medical Office': 69.0,
  'Movie Theater': 53.2,
  'Multifamily Housing': 44.2,
  Museum: 'reduction',
  'Non-Refrigerated Warehouse': 27.2,
  Office: 48.3,
  Other: 49.2,
  'Other - Education': 37.2,
  'Other - Entertainment/Public Assembly': 'reduction',
  'Other - Lodging/Residential': 51.3,
  'Other - Mall': 60.3,
};

/** Utility types that are energy, in the order the answer lists them (water, sewer and trash are not). */
const ENERGY_TYPES: MeterUtilityType[] = ['electric', 'gas', 'steam', 'other'];

export interface SiteEnergyLine {
  utility_type: MeterUtilityType;
  energy: number;
  energy_unit: string;
  kbtu_per_unit: number;
  kbtu: number;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places + 0;

/**
 * A year's site energy in kBtu with Portfolio Manager's conversions: kWh x 3.412, therms x 100,
 * steam and other meters already in kBtu. Not weather normalized.
 */
export function siteEnergy(energy: EnergyByType): { kbtu: number; lines: SiteEnergyLine[] } {
  const lines: SiteEnergyLine[] = [];
  let kbtu = 0;
  for (const type of ENERGY_TYPES) {
    const usage = energy[type];
    if (!usage) continue;
    const family = UNIT_FAMILIES[type];
    const perUnit = family.kbtuPerCommon!;
    kbtu += usage * perUnit;
    lines.push({
      utility_type: type,
      energy: round(usage, 3),
      energy_unit: family.common,
      kbtu_per_unit: perUnit,
      kbtu: round(usage * perUnit, 3),
    });
  }
  return { kbtu, lines };
}

export interface TargetLine {
  property_type: PropertyType;
  gross_floor_area: number;
  target_eui: number | null;
  target_kbtu: number | null;
  note: string | null;
}

/**
 * The building's final target: each use's target EUI times its gross floor area, summed, over the
 * uses' total area (the city's "blended target based on the percentage of gross floor area
 * assigned to each building type"). Null where any use has no confirmed numeric target.
 */
export function blendedFinalTarget(uses: PropertyUseArea[]): {
  lines: TargetLine[];
  grossFloorArea: number;
  targetKbtu: number | null;
  targetEui: number | null;
  missing: PropertyType[];
} {
  const lines = uses.map((u): TargetLine => {
    const t = DENVER_FINAL_TARGETS[u.type];
    if (typeof t === 'number') {
      return { property_type: u.type, gross_floor_area: u.sqft, target_eui: t, target_kbtu: round(t * u.sqft, 3), note: null };
    }
    return {
      property_type: u.type,
      gross_floor_area: u.sqft,
      target_eui: null,
      target_kbtu: null,
      note:
        t === 'reduction'
          ? "The city's target for this type is a 30 % EUI reduction from the building's own baseline, which is not recorded here."
          : "The city's final target for this type could not be confirmed from its published table: none is guessed.",
    };
  });
  const missing = lines.filter((l) => l.target_eui === null).map((l) => l.property_type);
  const grossFloorArea = uses.reduce((sum, u) => sum + u.sqft, 0);
  const targetKbtu =
    missing.length || !uses.length ? null : uses.reduce((sum, u) => sum + (DENVER_FINAL_TARGETS[u.type] as number) * u.sqft, 0);
  return {
    lines,
    grossFloorArea,
    targetKbtu: targetKbtu === null ? null : round(targetKbtu, 3),
    targetEui: targetKbtu === null ? null : round(targetKbtu / grossFloorArea, 2),
    missing,
  };
}

export interface EnergizeDenverAnswer {
  status: 'computed' | 'no_property_uses' | 'target_not_confirmed';
  year: number;
  site_energy_kbtu: number;
  energy_lines: SiteEnergyLine[];
  gross_floor_area: number | null;
  site_eui: number | null;
  weather_normalized: false;
  final_target_year: number;
  final_target_eui: number | null;
  target_lines: TargetLine[];
  kbtu_over_final_target: number | null;
  projected_penalty: null;
  notes: string[];
}

const NOT_NORMALIZED =
  "site_eui is the year's site energy (Portfolio Manager conversions: kWh x 3.412, therms x 100, steam kBtu) over the property " +
  "uses' gross floor area, not weather normalized. The city measures buildings by weather-normalized site EUI (§ 10-400(l); " +
  "Portfolio Manager's Weather Normalized Site EUI), which this service does not compute, so the city's figure can differ.";
const TIMELINE =
  `The final target applies from calendar year ${FINAL_TARGET_YEAR} on the city's updated timeline (2030 as the ordinance was ` +
  `written), and must be maintained each year after. The interim target (${INTERIM_TARGET_YEAR}; 2024 and 2027 as written) is ` +
  "each building's own, on a straight line from its 2019 baseline EUI to the final target (§ 10-404(a)); the service has no " +
  'baseline, so no interim target is given.';
const NO_PENALTY =
  'No penalty is projected: § 10-407(d) allows a civil penalty of up to $0.70 per kBtu of required reduction not achieved in a ' +
  "year, and the city's rules set the rates actually charged (cut in half on April 1, 2025, by timeline and extension), which " +
  "could not be confirmed from the rules' text. kbtu_over_final_target is the reduction the final target requires.";
const ADJUSTMENTS =
  "Not modelled: the rule that no building need cut its energy use by more than 42 % (which needs the building's baseline), " +
  'renewable energy credits (§ 10-404(a)), target adjustments and timeline extensions granted by the city.';
const NO_USES =
  'No Portfolio Manager property uses are recorded for this property (PUT /pm/properties/{id}/property-uses): the final target ' +
  "is each use's target blended by gross floor area, so none is computed.";

/** Energize Denver's answer for a calendar year of energy and the recorded property uses. */
export function energizeDenver(year: number, energy: EnergyByType, uses: PropertyUseArea[]): EnergizeDenverAnswer {
  const site = siteEnergy(energy);
  const target = blendedFinalTarget(uses);
  const gfa = uses.length ? target.grossFloorArea : null;
  const status: EnergizeDenverAnswer['status'] = !uses.length
    ? 'no_property_uses'
    : target.missing.length
      ? 'target_not_confirmed'
      : 'computed';
  const notes = [
    ...(!uses.length ? [NO_USES] : []),
    ...(target.missing.length
      ? [`No final target is confirmed for ${target.missing.join(', ')}: no blended target is given, none is guessed.`]
      : []),
    NOT_NORMALIZED,
    TIMELINE,
    NO_PENALTY,
    ADJUSTMENTS,
  ];
  return {
    status,
    year,
    site_energy_kbtu: round(site.kbtu, 3),
    energy_lines: site.lines,
    gross_floor_area: gfa,
    site_eui: gfa ? round(site.kbtu / gfa, 1) : null,
    weather_normalized: false,
    final_target_year: FINAL_TARGET_YEAR,
    final_target_eui: target.targetEui,
    target_lines: target.lines,
    kbtu_over_final_target: target.targetKbtu === null ? null : Math.max(0, Math.round(site.kbtu - target.targetKbtu)) + 0,
    projected_penalty: null,
    notes,
  };
}
