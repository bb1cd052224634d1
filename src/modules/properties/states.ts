/**
 * Valid `state` values: the ISO 3166-2:US subdivision codes, i.e. the 50 states,
 * the District of Columbia and the inhabited territories plus the Minor Outlying Islands.
 */
export const US_STATE_CODES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'AS',
  'GU',
  'MP',
  'PR',
  'VI',
  'UM',
] as const;

export type UsStateCode = (typeof US_STATE_CODES)[number];

const codes: ReadonlySet<string> = new Set(US_STATE_CODES);

export function isUsStateCode(value: string): value is UsStateCode {
  return codes.has(value);
}

export const PROPERTY_TYPES = ['residential', 'commercial', 'industrial', 'mixed_use'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export type PropertySector = 'residential' | 'commercial' | 'industrial';

/**
 * The tariff sectors whose rates a property may take, in order of preference:
 * residential; commercial; mixed use and industrial: commercial, then industrial. A residential
 * building of more than 4 units also sees commercial rates: its house meter (common areas) is
 * billed on general-service rates.
 */
export function sectorsOfProperty(propertyType: string, unitCount: number | null): PropertySector[] {
  switch (propertyType as PropertyType) {
    case 'residential':
      return unitCount !== null && unitCount > 4 ? ['residential', 'commercial'] : ['residential'];
    case 'commercial':
      return ['commercial'];
    default:
      return ['commercial', 'industrial'];
  }
}
