/**
 * Boston BERDO 2.0's part of the building-performance answer: berdoAssessment (berdo.calc.ts) on
 * the year's energy and the recorded property uses, presented as the API gives it. Pure.
 */
import { berdoAssessment, BERDO_ACP_CENTS_PER_TON } from './berdo.calc';
import type { EnergyByType } from './ll97.calc';
import type { PropertyUseArea } from './property-types';

export interface BerdoAnswer {
  status: 'computed' | 'not_confirmed' | 'no_property_uses' | 'no_standard';
  year: number;
  period: string | null;
  emissions_tco2e: number | null;
  emission_lines: Array<{
    fuel: 'electricity' | 'natural_gas' | 'district_steam';
    energy: number;
    energy_unit: string;
    factor: number;
    factor_unit: string;
    rps_class_i_percent: number | null;
    tco2e: number;
  }>;
  gross_floor_area: number | null;
  blended_standard_kg_per_sf: number | null;
  limit_tco2e: number | null;
  limit_lines: Array<{
    property_type: string;
    berdo_use: string;
    gross_floor_area: number;
    standard_kg_per_sf: number;
    tco2e: number;
  }>;
  excess_tco2e: number | null;
  acp_per_ton: number;
  alternative_compliance_payment: number | null;
  missing: string[];
  notes: string[];
}

const BERDO_NO_USES =
  'No Portfolio Manager property uses are recorded for this property (PUT /pm/properties/{id}/property-uses): the emissions ' +
  "standard is each use's Table 1 standard times its gross floor area, so none is computed.";
const BERDO_READ_AS =
  "Table 1's standards and the RPS Class I share are the law's; the city's emission factors (electricity = MWh x (1 - RPS Class " +
  'I) x the projected grid factor), its map of Portfolio Manager types to building uses and the $234 alternative compliance ' +
  "payment were read in two or more independent secondary sources naming the city's documents, not in them (emissions README).";
const BERDO_NOT_MODELLED =
  'Not modelled: renewable energy certificates and power purchase agreements, building portfolios, individual compliance ' +
  'schedules, hardship plans, exemptions, and fines for not complying (as opposed to the alternative compliance payment).';

/** The Boston BERDO 2.0 answer of a year of energy and the recorded property uses. */
export function berdoAnswer(year: number, energy: EnergyByType, uses: PropertyUseArea[]): BerdoAnswer {
  const empty = {
    year,
    period: null,
    emissions_tco2e: null,
    emission_lines: [],
    gross_floor_area: null,
    blended_standard_kg_per_sf: null,
    limit_tco2e: null,
    limit_lines: [],
    excess_tco2e: null,
    acp_per_ton: BERDO_ACP_CENTS_PER_TON / 100,
    alternative_compliance_payment: null,
    missing: [],
  };
  if (!uses.length) return { ...empty, status: 'no_property_uses', notes: [BERDO_NO_USES] };
  const a = berdoAssessment({
    uses: uses.map((u) => ({ propertyType: u.type, grossFloorArea: u.sqft })),
    year,
    energy: {
      electricKwh: energy.electric ?? 0,
      gasTherms: energy.gas ?? 0,
      steamKbtu: energy.steam ?? 0,
      fuelOil2Kbtu: energy.fuel_oil_2 ?? 0,
      fuelOil4Kbtu: energy.fuel_oil_4 ?? 0,
      fuelOil56Kbtu: energy.fuel_oil_5_6 ?? 0,
      otherKbtu: energy.other ?? 0,
    },
  });
  if (a.status === 'no_standard') return { ...empty, status: 'no_standard', notes: [`${a.reason}.`] };
  if (a.status === 'not_confirmed') {
    return {
      ...empty,
      status: 'not_confirmed',
      period: a.period,
      missing: a.missing,
      notes: ['Not computed: what the year needs that is not confirmed is listed in `missing`; no number is guessed.'],
    };
  }
  return {
    status: 'computed',
    year,
    period: a.period,
    emissions_tco2e: a.emissionsTco2e,
    emission_lines: a.emissionLines.map((l) => ({
      fuel: l.fuel,
      energy: l.energy,
      energy_unit: l.energyUnit,
      factor: l.factor,
      factor_unit: l.factorUnit,
      rps_class_i_percent: l.rpsClassIPercent ?? null,
      tco2e: l.tco2e,
    })),
    gross_floor_area: a.grossFloorArea,
    blended_standard_kg_per_sf: a.blendedStandardKgPerSf,
    limit_tco2e: a.limitTco2e,
    limit_lines: a.limitLines.map((l) => ({
      property_type: l.propertyType,
      berdo_use: l.berdoUse,
      gross_floor_area: l.grossFloorArea,
      standard_kg_per_sf: l.standardKgPerSf,
      tco2e: l.tco2e,
    })),
    excess_tco2e: a.excessTco2e,
    acp_per_ton: a.acpDollarsPerTon,
    alternative_compliance_payment: a.acpCents / 100,
    missing: [],
    notes: [BERDO_READ_AS, BERDO_NOT_MODELLED],
  };
}
