/**
 * Tariffs built by hand for tests: one place for the fields a test does not care about, so that each
 * test states only the charges (and the summary fields) its hand-worked amounts depend on.
 */
import { NO_APPLICABILITY, type Tariff, type TariffStructure, type UtilityType } from './tariff.model';
import { parseRates, type RatesInput } from './custom/rates.parse';
import { classify } from './urdb.normalize';

/** A structure with no charge of any kind; spread it and set the charges a test prices. */
export const EMPTY_STRUCTURE: Readonly<TariffStructure> = Object.freeze({
  energy: null,
  demandTou: null,
  demandFlat: null,
  fixedCharges: [],
  minimumCharge: null,
  fuelAdjustmentsMonthly: null,
  dgRules: null,
  realTime: false,
  demandCoincident: null,
  additionalMeterCharge: null,
  reactivePowerCharge: null,
  demandRatchet: null,
});

/**
 * A tariff around `fields.structure`: Example Utility's commercial, general, bundled electric rate in
 * kWh, effective 2024-01-01, with no description and no applicability limits, classified from its
 * structure as the importer does. Any field given in `fields` wins.
 */
export function tariffOf(fields: Pick<Tariff, 'id' | 'structure'> & Partial<Tariff>): Tariff {
  return {
    name: fields.id,
    utilityId: '',
    utilityName: 'Example Utility',
    state: 'TX',
    sector: 'commercial',
    ...classify(fields.structure),
    effectiveDate: '2024-01-01',
    expirationDate: null,
    description: '',
    eligibility: '',
    applicability: NO_APPLICABILITY,
    serviceType: 'bundled',
    voltage: null,
    purpose: 'general',
    classNote: null,
    sourceUrl: '',
    lastUpdated: '2024-01-01T00:00:00.000Z',
    utilityType: 'electric',
    unit: 'kWh',
    notes: [],
    ...fields,
  };
}

/** The structure of rates in the custom-tariff shape (POST /tariffs/custom), or a throw naming what parseRates refused. */
export function parsedRates(rates: RatesInput, type: UtilityType, unit: string): TariffStructure {
  const parsed = parseRates(rates, type, unit);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.structure;
}
