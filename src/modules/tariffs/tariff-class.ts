/**
 * Which customers may take a tariff: its service type, its service voltage and its purpose,
 * derived from the URDB record by the written rules of data/reference/README.md ("Tariff
 * classes"). Pure: no I/O. The record's own fields decide where they are published
 * (`servicetype`, `voltagecategory`, the Lighting sector); most records publish none, and then
 * the rate's name decides, by the patterns below, in the order listed.
 */

export type ServiceType = 'bundled' | 'delivery_only' | 'supply_only';
export type Voltage = 'secondary' | 'primary' | 'transmission';
export type Purpose =
  | 'general'
  | 'lighting'
  | 'traffic_signals'
  | 'unmetered'
  | 'standby'
  | 'distributed_generation'
  | 'ev_charging'
  | 'interruptible'
  | 'irrigation_pumping'
  | 'agricultural'
  | 'space_water_heating'
  | 'temporary'
  | 'rider'
  | 'resale'
  | 'institutional'
  | 'economic_development'
  | 'low_income';

export const SERVICE_TYPES: readonly ServiceType[] = ['bundled', 'delivery_only', 'supply_only'];
export const VOLTAGES: readonly Voltage[] = ['secondary', 'primary', 'transmission'];
export const PURPOSES: readonly Purpose[] = [
  'general',
  'lighting',
  'traffic_signals',
  'unmetered',
  'standby',
  'distributed_generation',
  'ev_charging',
  'interruptible',
  'irrigation_pumping',
  'agricultural',
  'space_water_heating',
  'temporary',
  'rider',
  'resale',
  'institutional',
  'economic_development',
  'low_income',
];

/** Service voltage from low to high: a customer may move to a tariff at its own voltage or a lower one. */
export const VOLTAGE_RANK: Readonly<Record<Voltage, number>> = { secondary: 0, primary: 1, transmission: 2 };

export interface TariffClass {
  serviceType: ServiceType;
  voltage: Voltage | null;
  purpose: Purpose;
  /** Set when the record's evidence is unclear (unknown published value, conflicting words): what was assumed. */
  note: string | null;
}

export interface ClassInput {
  utilityId: string;
  sector: string;
  name: string;
  /** URDB `servicetype`, `voltagecategory` as published (absent: undefined). */
  servicetype?: string;
  voltagecategory?: string;
  /** URDB `description`, `basicinformationcomments` and `energycomments`, for the few rules that read them. */
  description?: string;
  comments?: string;
  /** Some energy tier carries a non-zero URDB `adj` (where utilities' supply charges were entered). */
  energyAdjusted?: boolean;
}

/**
 * The distribution utilities of Texas's competitive (ERCOT) market: Public Utility Regulatory Act
 * §39.051 unbundled them, and their customers buy energy from a retail electric provider, so every
 * tariff of theirs is delivery only whatever its name says (EIA ids: CenterPoint Energy Houston
 * Electric, Oncor Electric Delivery, AEP Texas Central, AEP Texas North, Texas-New Mexico Power,
 * Sharyland Utilities).
 */
export const TEXAS_DELIVERY_UTILITIES: ReadonlySet<string> = new Set(['8901', '44372', '3278', '20404', '40051', '17008']);

/**
 * Maine's investor-owned transmission and distribution utilities (Central Maine Power, Emera Maine /
 * Bangor Hydro-Electric, Maine Public Service): Maine's restructuring act made them divest their
 * generation (35-A M.R.S. §3204) and forbids them to sell energy at retail except as the standard-offer
 * service the Public Utilities Commission procures (35-A M.R.S. §3212). Their rates are delivery; the
 * "Standard Offer" rates are the supply price.
 */
export const MAINE_TD_UTILITIES: ReadonlySet<string> = new Set(['3266', '1179', '11522']);

const AMEREN_ILLINOIS = '56697';

const PUBLISHED_SERVICE_TYPES: Record<string, ServiceType> = {
  Bundled: 'bundled',
  Delivery: 'delivery_only',
  // Delivery plus the utility's default (standard offer) supply: what a customer who chooses no supplier pays.
  'Delivery with Standard Offer': 'bundled',
  Energy: 'supply_only',
};

const DELIVERY_WORDS =
  /\bunbundled\b|\bretail delivery\b|\bdelivery (service|only|class)\b|\bdistribution (service )?only\b|\bretail (access|choice)\b|\bdirect access\b|\bopen access\b|\besco\b|\(delivery\)|-\s*delivery\s*$/i;
const RETAIL_ACCESS_NAME = /\(retail service\)|\bretail (open )?access\b|\bretail choice\b/i;
const SUPPLY_WORDS =
  /\bsupply only\b|(?<!co-?)\bgeneration (service|only)\b|\benergy only\b|\bbasic generation service\b|\bdefault (energy )?service\b(?!.*\bdelivery\b)/i;
const BUNDLED_WORDS = /\bbundled\b(?!.*\bunbundled\b)/i;

/**
 * The record's own text says its energy rates leave supply out, or that its adjustment is the supply charge. Issue 45's
 * third new-user pass added two wordings of the same statement: "does not include any charges associated with
 * generation" (Westfield Electric, WI) and "Rate for distribution only" (Northeastern REMC, IN). (Supply listed among the
 * rules billed beside the rate, Niagara Mohawk's "*Rule 46 - Supply Service Charges", is no such statement: its SC1 of
 * 2014 lists it and prices supply in its energy charge.)
 */
const TEXT_NO_SUPPLY = new RegExp(
  [
    String.raw`\bdistribution service (under|pursuant to|provided under) this (tariff|rate|schedule)\b`,
    String.raw`\b(do|does) not include (any )?(the )?(charges? (associated with|for) )?(the )?(generation|supply|power supply|energy supply)`,
    String.raw`\bincludes only the delivery\b`,
    String.raw`\bsupply is (billed|purchased|provided) separately\b`,
    String.raw`\b(rate|rates|charges?) (is |are )?for distribution only\b`,
  ].join('|'),
  'i',
);
const TEXT_SUPPLY_IN_ADJUSTMENT = /\badjustment\b[^.]{0,60}\b(power supply charge|basic service|default service|standard offer service)/i;

function serviceTypeOf(input: ClassInput, notes: string[]): ServiceType {
  if (TEXAS_DELIVERY_UTILITIES.has(input.utilityId)) return 'delivery_only';
  if (MAINE_TD_UTILITIES.has(input.utilityId)) {
    const published = input.servicetype?.trim();
    if (published === 'Delivery with Standard Offer' || published === 'Bundled' || BUNDLED_WORDS.test(input.name)) return 'bundled';
    return /\bstandard offer\b/i.test(input.name) && !/\bdelivery\b/i.test(input.name) ? 'supply_only' : 'delivery_only';
  }
  const text = `${input.description ?? ''}\n${input.comments ?? ''}`;
  if (input.energyAdjusted && TEXT_SUPPLY_IN_ADJUSTMENT.test(text)) return 'bundled';
  if (TEXT_NO_SUPPLY.test(text)) return 'delivery_only';
  // Michigan's retail access (MCL 460.10a) and the like: a schedule named for customers who buy power from another
  // supplier is delivery, even where URDB entered it as "Delivery with Standard Offer" (DTE's "(Retail Service)"
  // twins of its "(Full Service)" schedules).
  if (RETAIL_ACCESS_NAME.test(input.name)) return 'delivery_only';
  const published = input.servicetype?.trim();
  if (published) {
    const known = PUBLISHED_SERVICE_TYPES[published];
    if (known) return known;
    notes.push(`service type "${published}" is not one URDB defines; taken as bundled`);
    return 'bundled';
  }
  if (/\bunbundled\b/i.test(input.name)) return 'delivery_only';
  // Ameren Illinois owns no generation: its rate book's general rates are delivery service ("DS-n", "Rate n"); supply
  // comes under its Rider BGS or from a retail supplier. Records that publish no service type follow the book.
  if (input.utilityId === AMEREN_ILLINOIS && /^(DS-\d|Rate \d)/i.test(input.name)) return 'delivery_only';
  if (BUNDLED_WORDS.test(input.name)) return 'bundled';
  if (DELIVERY_WORDS.test(input.name)) return 'delivery_only';
  if (SUPPLY_WORDS.test(input.name)) return 'supply_only';
  return 'bundled';
}

const PUBLISHED_VOLTAGES: Record<string, Voltage> = { Secondary: 'secondary', Primary: 'primary', Transmission: 'transmission' };

/**
 * Oklahoma Gas & Electric's "Service Level" 1-5 (its tariff's definitions): 1 transmission, 2 the
 * distribution substation and 3 primary distribution (primary voltage), 4 and 5 transformed to
 * secondary. Its records name the level instead of a voltage.
 */
const OGE_SERVICE_LEVELS: Record<string, Voltage> = { 1: 'transmission', 2: 'primary', 3: 'primary', 4: 'secondary', 5: 'secondary' };
const OGE_UTILITIES = new Set(['14063', '14062']);

/** Voltages the name states, by word or by kV: several (a rate offered at more than one) all count. */
function voltagesNamed(input: ClassInput): Voltage[] {
  const name = input.name;
  const found: Voltage[] = [];
  if (/\bsecondary\b|\bunder 2 ?kv\b/i.test(name)) found.push('secondary');
  if (/\bprimary\b(?!\s+school)/i.test(name) && !/\b(underground|overhead) primary\b/i.test(name)) found.push('primary');
  if (/\b(sub-?)?transmission\b/i.test(name)) found.push('transmission');
  const kv =
    /\b(?:above|over|greater than)?\s*(\d+(?:\.\d+)?)\s?kv\s*(?:-|to)\s*\d+(?:\.\d+)?\s?kv\b|\b(?:above|over|greater than)\s+(\d+(?:\.\d+)?)\s?kv\b/i.exec(
      name,
    );
  const lowKv = kv ? Number(kv[1] ?? kv[2]) : null;
  if (lowKv !== null) found.push(lowKv >= 50 ? 'transmission' : lowKv >= 2 ? 'primary' : 'secondary');
  const level = /\bservice level (\d)\b/i.exec(name);
  if (level && OGE_UTILITIES.has(input.utilityId) && OGE_SERVICE_LEVELS[level[1]!]) found.push(OGE_SERVICE_LEVELS[level[1]!]!);
  return found;
}

/** Low-voltage service stated in the description: "at available secondary voltage", "120/240 V". */
const DESCRIBED_SECONDARY =
  /\bsecondary (voltage|service|point[- ]of[- ]delivery)\b|\b(120|208|240|277|480)\s?(\/\s?(208|240|277|480)\s?)?v(olts?)?\b/i;
const DESCRIBED_HIGHER = /\bprimary\b|\btransmission\b|\bkv\b/i;

/**
 * The name first (it states the voltage the rate is for, and URDB's category was sometimes
 * entered wrong against it); a rate offered at several voltages is open to customers at the lowest
 * of them. Then the published category, then a description that states only low voltages.
 */
function voltageOf(input: ClassInput, notes: string[]): Voltage | null {
  const named = voltagesNamed(input);
  if (named.length) return named.reduce((low, v) => (VOLTAGE_RANK[v] < VOLTAGE_RANK[low] ? v : low));
  const published = input.voltagecategory?.trim();
  if (published) {
    const known = PUBLISHED_VOLTAGES[published];
    if (known) return known;
    notes.push(`voltage category "${published}" is not one URDB defines; taken as unknown`);
  }
  // Some utilities' "High Voltage" class is sub-transmission service (Ameren Illinois: metered above 15 kV); weaker
  // than a published category, which may say otherwise (ComEd's High Voltage class is entered as Primary).
  if (/\b(very )?high voltage\b/i.test(input.name)) return 'transmission';
  const described = input.description ?? '';
  if (DESCRIBED_SECONDARY.test(described) && !DESCRIBED_HIGHER.test(described)) return 'secondary';
  return null;
}

/** Special purposes by the words of the rate's name, in the order they are tried (the first match wins). */
const PURPOSE_RULES: ReadonlyArray<[Exclude<Purpose, 'general'>, RegExp]> = [
  ['traffic_signals', /\btraffic\b|\bsignal (service|lights?|systems?)\b/i],
  [
    'lighting',
    /\bathletic fields?\b|\bsports? fields?\b|\bball ?(park|field)s?\b|\b(road )?sign service\b|\b(street|area|yard|security|outdoor|flood|sign|athletic|sports?|ball ?field|park|parking lot|private|protective|decorative|roadway|highway|metered|dusk[- ]to[- ]dawn)\s?-?\s?(lights?|lighting|lites?|lamps?)\b|\blamps?\b|\bluminaires?\b|\bdusk\b|^(?!.*\b(power|commercial)\b).*\blighting\b/i,
  ],
  ['unmetered', /\b(un|non)-?\s?metered\b|\bnonmetered\b|\bunmetered\b/i],
  [
    'rider',
    /\brider\b|\bgreen (power|energy|pricing|choice)\b|\brenewable (energy )?(rider|program|option|credit|choice)\b|\bpublic benefits?\b|\badjustment (clause|charge|rider)\b|\bcost adjustment\b|\bsurcharge\b|\bwind (energy|power) (rider|program|option)\b/i,
  ],
  ['resale', /\bresale\b|\bwholesale\b/i],
  [
    'space_water_heating',
    /^(?!.*\bone meter\b)(?=.*(\bwater heat|\bspace heat|\bheat storage|\belectric heat (rate|credit)|\bspecial electric heat|\bthermal energy (service|storage)|\bheat pumps?\b|\bdual[- ]fuel|\bduel[- ]fuel|\bthermal (energy )?storage|\bstorage heat|\bets\b|\boff[- ]peak (heating|storage|water)|\bheating (only|service|rate)\b|\bcontrolled (water|heat)))/i,
  ],
  ['standby', /\bstand-?\s?by\b|\bback-?\s?up\b|\bsupplement(al|ary)\b|\bmaintenance (power|service)\b|\bpartial requirements?\b/i],
  ['economic_development', /\beconomic development\b|\bRNY-\d|\bWNY-\d|\brecharge new york\b/i],
  ['low_income', /\blife-?line\b|\blow[- ]income\b/i],
  [
    'distributed_generation',
    /\bnet[- ](energy[- ])?meter(ing|ed)?\b|\bnem\b|\boption r\b|\brenewable generation\b|\bco-?generation\b|\bsmall power produc|\bqualifying facilit|\bparallel generation\b|\bdistributed generat|\bbuy all\b|\bsell all\b|\bpower purchase\b|\bnet billing\b|\bself[- ]generat|\bgeneration (customers?|facilities)\b/i,
  ],
  ['ev_charging', /\belectric vehicle|\bev\b|\bpev\b|\bev[- ]?\d|\bcharg(ing|er) (station|service)|\bfast charg|\bvehicle charg/i],
  ['temporary', /\btemporary\b|\bconstruction\b/i],
  [
    'irrigation_pumping',
    /\birrigat|\bpivot\b|\bpumping\b|\bpumps?\b|\boil[- ]?field|\b(water )?wells?\b|\bwater (works|utility|utilities|and sewer|& sewer)|\bsewage|\bwastewater|\blift station/i,
  ],
  [
    'agricultural',
    /^(?!.*\b(residential|residence|home|house|domestic|non-?farm|commercial|general service)\b)(?=.*(\bfarms?\b|\bgrain\b|\bcrop\b|\bdrying\b|\bdryers?\b|\bagricultur|\bpoultry|\bdairy|\bgreenhouses?\b|\branch(es)?\b))/i,
  ],
  [
    'interruptible',
    /\binterruptible\b|\bcurtailable\b|\bload (management|control)\b|\bcontrolled\b|\bdemand response\b|\bpeak (time )?rebate\b/i,
  ],
  [
    'institutional',
    /\bschools?\b|\bchurch(es)?\b|\breligious\b|\bworship\b|\bgovernment(al)?\b|\bmunicipal\b(?<!\b(general service|commercial) and municipal)|\bcity (owned|departments?|buildings?|accounts?|facilities|use)\b|\bpublic (authority|buildings?|schools?|agency|agencies|housing)\b|\binterdepartmental\b|\bmilitary\b|\bnon-?profit\b|\buniversit(y|ies)\b|\bcolleges?\b|\bfederal\b|\bstate (agency|facilities|government)\b/i,
  ],
];

/** "Non-interruptible", "uncontrolled": the negated word says the rate is an ordinary one. */
const NEGATED = /\b(non|un)-?\s?(interruptible|curtailable|controlled|residential)\b/gi;

/**
 * The New York Power Authority names some schedules only by number; their descriptions say whom
 * they serve: "New York City Customers" are NYPA's New York City governmental customers (city
 * agencies, public housing, transit), "Resale power and energy service" is sale for resale.
 */
const NYPA = '15296';
/** LADWP names its cogeneration schedules "CG-n" and nothing else. */
const LADWP = '11208';
function utilityPurpose(input: ClassInput): Purpose | null {
  if (input.utilityId === LADWP && /\bCG-\d/.test(input.name)) return 'distributed_generation';
  if (input.utilityId !== NYPA) return null;
  const d = input.description ?? '';
  if (/^New York City Customers\b/i.test(d)) return 'institutional';
  if (/^Resale power\b/i.test(d)) return 'resale';
  return null;
}

function purposeOf(input: ClassInput, notes: string[]): Purpose {
  if (input.sector.toLowerCase() === 'lighting') return 'lighting';
  const byUtility = utilityPurpose(input);
  if (byUtility) return byUtility;
  const name = input.name.replace(NEGATED, ' ');
  const matched = PURPOSE_RULES.filter(([, pattern]) => pattern.test(name)).map(([purpose]) => purpose);
  if (matched.length === 0) return 'general';
  if (matched.length > 1) notes.push(`the name reads as ${matched.join(' and ')}; taken as ${matched[0]}`);
  return matched[0]!;
}

/**
 * A schedule closed to new customers: its name says "Closed" ("(CLOSED)", "Closed Rate", 54 bundled
 * records). Those on it may stay; nobody may move to it.
 */
export function closedToNewCustomers(name: string): boolean {
  return /\bclosed\b/i.test(name);
}

const KW = String.raw`(\d[\d,]*(?:\.\d+)?)\s*-?\s*kw\b`;
const NAMED_MAX = [
  new RegExp(String.raw`(?:less than or equal to|less than|under|below|up to|not exceeding|not over|<=|≤|<)\s*${KW}`, 'gi'),
  new RegExp(String.raw`${KW}\s*(?:or less|and (?:under|less|below))`, 'gi'),
];
const NAMED_MIN = [
  new RegExp(
    String.raw`(?:greater than or equal to|more than or equal to|at least|greater than|over|above|more than|exceeding|>=|≥|>)\s*${KW}`,
    'gi',
  ),
  new RegExp(String.raw`${KW}\s*(?:or (?:more|greater)(?!\s+than)|and (?:over|above|greater|more))`, 'gi'),
];
const NAMED_RANGE = /\b(\d[\d,]*(?:\.\d+)?)\s*(?:-|to)\s*(\d[\d,]*(?:\.\d+)?)\s*kw\b/gi;
const kwOf = (text: string) => Number(text.replace(/,/g, ''));

/**
 * The peak-demand limits a schedule's name states ("Less Than 10KW", "over 40 kW Demand",
 * "(101-300 kW)", "50 kW and Under"), for records that publish none: kW only (a kVA figure is a
 * transformer's or service's capacity, not the customer's demand). Several bounds of one kind keep
 * the tightest; bounds that contradict each other are no limit.
 */
export function demandLimitsNamed(name: string): { min: number | null; max: number | null } {
  const all = (patterns: RegExp[]) => patterns.flatMap((p) => [...name.matchAll(p)].map((m) => kwOf(m[1]!)));
  const maxes = all(NAMED_MAX);
  const mins = all(NAMED_MIN);
  for (const m of name.matchAll(NAMED_RANGE)) {
    mins.push(kwOf(m[1]!));
    maxes.push(kwOf(m[2]!));
  }
  const min = mins.length ? Math.max(...mins) : null;
  const max = maxes.length ? Math.min(...maxes) : null;
  if (min !== null && max !== null && min >= max) return { min: null, max: null };
  return { min, max };
}

/** The class of one tariff (see the module comment); never throws. */
export function classifyTariff(input: ClassInput): TariffClass {
  const notes: string[] = [];
  const serviceType = serviceTypeOf(input, notes);
  const voltage = voltageOf(input, notes);
  const purpose = purposeOf(input, notes);
  return { serviceType, voltage, purpose, note: notes.length ? `Tariff class: ${notes.join('; ')}.` : null };
}
