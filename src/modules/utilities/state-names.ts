/** US state (and DC) names to their two-letter codes, as URDB writes them in utility names. */
const STATE_CODES: Record<string, string> = {
  Alabama: 'AL',
  Alaska: 'AK',
  Arizona: 'AZ',
  Arkansas: 'AR',
  California: 'CA',
  Colorado: 'CO',
  Connecticut: 'CT',
  Delaware: 'DE',
  'District of Columbia': 'DC',
  Florida: 'FL',
  Georgia: 'GA',
  Hawaii: 'HI',
  Idaho: 'ID',
  Illinois: 'IL',
  Indiana: 'IN',
  Iowa: 'IA',
  Kansas: 'KS',
  Kentucky: 'KY',
  Louisiana: 'LA',
  Maine: 'ME',
  Maryland: 'MD',
  Massachusetts: 'MA',
  Michigan: 'MI',
  Minnesota: 'MN',
  Mississippi: 'MS',
  Missouri: 'MO',
  Montana: 'MT',
  Nebraska: 'NE',
  Nevada: 'NV',
  'New Hampshire': 'NH',
  'New Jersey': 'NJ',
  'New Mexico': 'NM',
  'New York': 'NY',
  'North Carolina': 'NC',
  'North Dakota': 'ND',
  Ohio: 'OH',
  Oklahoma: 'OK',
  Oregon: 'OR',
  Pennsylvania: 'PA',
  'Rhode Island': 'RI',
  'South Carolina': 'SC',
  'South Dakota': 'SD',
  Tennessee: 'TN',
  Texas: 'TX',
  Utah: 'UT',
  Vermont: 'VT',
  Virginia: 'VA',
  Washington: 'WA',
  'West Virginia': 'WV',
  Wisconsin: 'WI',
  Wyoming: 'WY',
};

/** The state a URDB utility name ends with, e.g. "PacifiCorp (Oregon)" -> "OR"; null if none. */
export function stateNamedIn(utilityName: string): string | null {
  const m = /\(([^()]+)\)\s*$/.exec(utilityName);
  return m ? (STATE_CODES[m[1].trim()] ?? null) : null;
}

/** A state named as a word anywhere in a utility name ("AEP Texas Central Company" -> "TX"); null if none or several. */
export function stateNamedInName(utilityName: string): string | null {
  const found = STATE_WORDS.filter(([pattern]) => pattern.test(utilityName));
  return found.length === 1 ? found[0]![1] : null;
}

/**
 * The one state a URDB record's source address names as a path word ("https://www.pacificpower.net/.../California/
 * Approved_Tariffs/CA_Price_Summary.pdf" -> "CA"); null if none or several.
 */
export function stateNamedInAddress(address: string): string | null {
  let text = address;
  try {
    text = decodeURIComponent(address);
  } catch {
    // a malformed escape: read the address as written
  }
  return stateNamedInName(text.replace(/[/_\-.+?=&]+/g, ' '));
}

const STATE_WORDS: ReadonlyArray<[RegExp, string]> = Object.entries(STATE_CODES).map(([name, code]) => [new RegExp(`\\b${name}\\b`), code]);
