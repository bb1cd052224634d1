/**
 * The words the eligibility rules read in a tariff's name and applicability text (data/reference/README.md,
 * "Who may take a tariff"): restriction words by kind, the words of general-service rates, of voltage, phase,
 * size and retail access, and the words by which a sentence sets a condition. Patterns only; applicability-text.ts
 * reads a record with them.
 */
export type RestrictionKind =
  | 'institution'
  | 'agriculture'
  | 'equipment'
  | 'generation'
  | 'multi_account'
  | 'program'
  | 'closed'
  | 'special_use'
  | 'location'
  | 'dwelling'
  | 'not_a_rate'
  | 'single_customer';

/** Sentences that exclude customers or uses: they restrict nobody who asks for the ordinary rate. */
export const EXCLUDING_CLAUSE = new RegExp(
  [
    String.raw`\b(?:not|nor)\s+(?:be\s+)?(?:available|applicable|apply|applies|eligible|offered|used|intended|permitted|allowed|valid)\b[^.;]*`,
    String.raw`\b(?:shall|will|may)\s+not\s+(?:be\s+)?(?:used|available|applicable|apply|resold|furnished)\b[^.;]*`,
    String.raw`\b(?:except|excluding|excludes|other than|does not include|not including|unless)\b[^.;]*`,
    String.raw`\bno\s+(?:resale|standby|breakdown|auxiliary|supplementary)\b[^.;]*`,
    String.raw`\bineligible\b[^.;]*`,
  ].join('|'),
  'gi',
);

/** Sentences that state who may take the rate: restriction words there are conditions. */
export const AVAILABILITY =
  /\b(available|availability|applicable|applicability|applies|apply|eligible|eligibility|limited to|restricted to|only (to|for)|open to|for (service|customers|members|consumers|accounts)|this (rate|schedule|tariff) (is )?for)\b/i;

export interface Rule {
  kind: RestrictionKind;
  pattern: RegExp;
}

/**
 * Words that show a general-service rate: the name calls it a general, commercial, business,
 * residential or power service, or the description opens it to all customers of a class.
 */
export const GENERAL_NAME =
  /\b(general|gs[a-z]?|power|demand|load factor|commercial|business|non-?residential|residential|residence|domestic|home|homes|dwellings?|power (service|rate)|small power|large power|medium power|light and power|power and light|industrial|standard (rate|service|offer)|retail|all uses|service rate|time[- ]of[- ](use|day)|tou|demand (metered|service|rate))\b/i;
export const GENERAL_DESCRIPTION =
  /\b(available|applicable|applies)\b[^.]{0,80}\b(all|any|every)\b[^.]{0,60}\b(customers?|consumers?|members?|uses?|purposes?|service)\b|\bfor (all|any) (purposes?|uses?)\b|\bgeneral (service|power|lighting|use|purposes?)\b|\bcommercial and (industrial|small industrial)\b|\bresidential (service|customers?|purposes?|use)\b|\bnon-?residential\b/i;

/** Voltage the description says service is taken at, when above secondary. */
export const DESCRIBED_PRIMARY =
  /\b(taken|served|delivered|supplied|furnished|receiv\w*|provided|service|available|metered)\b[^.;]{0,60}\b(at|from)\s+(a\s+|the\s+)?(primary|distribution primary|primary distribution|transmission|sub-?transmission)\b(?![^.;]{0,40}\bdiscount)|\b(primary|transmission|sub-?transmission) (voltage )?(service|customers?|delivery|metered)\b(?![^.;]{0,40}\bdiscount)|\b(\d{2,3}(?:\.\d+)?)\s?kv (or (higher|greater|above|more))\b/i;
/** Service "at nominally 33kV", "delivered at 12.47 kV": a kV figure the service is taken at. */
export const SERVED_AT_KV = /\b(?:at|of)\s+(?:nominally\s+|approximately\s+|about\s+)?(\d[\d,]*(?:\.\d+)?)\s?kv\b/i;
export const OVER_VOLTS = /\b(over|above|greater than|exceeding)\s+(\d[\d,]*)\s?v(olts?)?\b/i;

/** A customer who owns its substation or transformers takes service at the primary voltage ahead of them. */
export const CUSTOMER_OWNED_TRANSFORMATION =
  /\b(consumer|customer|member)[- ]owned\b|\btransformer (investment|ownership) (discount|credit)\b|\b(consumer|customer|member) (owns|furnishes|provides)\b[^.;]{0,40}\b(substation|transformers?|transformation)\b/i;
export const DESCRIBED_TRANSMISSION =
  /\b(transmission|sub-?transmission)\s+(voltage|service|level|line)\b|\b(6[69]|1[0-9]{2}|2[0-9]{2}|3[0-9]{2})\s?kv\b/i;

export const RETAIL_ACCESS =
  /\(retail service\)|\bretail (access|open access|choice)\b|\bcustomer choice\b|\bchoice (program|customers?)\b|\bunbundled\b|\balternative (electric )?suppliers?\b|\b(electric|energy|power|generation) (supplier|provider) other than\b|\bcompetitive (supplier|retail|energy)\b|\besco\b|\bdelivery service only\b|\bdirect access\b/i;

export const LOAD_FACTOR =
  /\b(?:load factor|lf)\b[^.;]{0,40}?(\d{1,2}(?:\.\d+)?)\s?%|(\d{1,2}(?:\.\d+)?)\s?%\s*(?:or (?:greater|higher|more)\s*)?(?:annual |monthly )?load factor/i;
/** kWh figures count as limits only when stated per month ("averaging less than 6,000 kWh per month"): others are tiers. */
export const KWH = String.raw`(\d[\d,]*(?:\.\d+)?)\s*(?:kwh|kilowatt[- ]hours?)(?=\s*(?:per|a|each|every)\s+(?:month|billing)|\s*monthly|\s*(?:in|during) (?:any|each)\b[^.;]{0,60}?\b(?:months?|billing (?:periods?|months?|cycles?)))`;
export const KWH_MIN = [
  new RegExp(String.raw`(?:exceed(?:s|ing)?|greater than|more than|over|above|at least|minimum(?: of)?)\s*${KWH}`, 'gi'),
  new RegExp(String.raw`${KWH}\s*(?:or more|or greater|and over|and above)`, 'gi'),
];
export const KWH_MAX = [
  new RegExp(String.raw`(?:less than|under|below|up to|not (?:to )?exceed(?:ed|ing)?|not more than|maximum of)\s*${KWH}`, 'gi'),
  new RegExp(String.raw`${KWH}\s*(?:or less|and under|and less)`, 'gi'),
];

/**
 * Words a rate's name uses for ordinary general-service rates: its class, size, metering, pricing,
 * voltage, phase and the words that join them. A name word outside this list, that is not a schedule
 * code ("GS-1", "LGS", "E21") or a word of the utility's name, is one the rules cannot read ("Restricted",
 * "Weekend", "Community"): the tariff goes to review instead of being recommended.
 */
export const NEUTRAL_NAME_WORDS = new Set(
  (
    'a an and or of the for to with without at in by on per as is this than between from general service services commercial ' +
    'commerical comercial commericial business non nonresidential residential residence domestic household home industrial ' +
    'power light lighting rate rates schedule tariff class option optional options standard basic offer small large medium ' +
    'mid intermediate extra heavy bulk big single three two multi poly polyphase phase wire demand energy kw kwh kva kv mw ' +
    'amp amps amperage volt volts voltage secondary primary transmission sub metered meter metering time day use tou tod ' +
    'peak service less over under greater more above below up not exceeding max maximum minimum size capacity load loads ' +
    'factor high low level customer customers consumer consumers account accounts all other electric electrical ' +
    'bundled unbundled delivery monthly month year annual billed billing charge charges tiered tier block blocks flat ' +
    'regular normal no new type code part zone system network price prices pricing plan plans full overhead underground ' +
    'super on off mid summer winter equal equals'
  ).split(' '),
);
export const CODE = /^(?=.*\d)[a-z0-9.]{1,8}$|^[A-Z]{1,5}$/;

/**
 * An availability sentence that lists a kind of customer among others ("commercial, industrial,
 * churches and schools") opens the rate to it rather than limiting the rate to it.
 */
export const INCLUSIVE =
  /\b(all|any|every|general|commercial|industrial|business(es)?|non-?residential|residential|residences?|apartments?|other|power)\b/i;
/** ...unless the sentence says the use is the main one ("whose use is primarily for pumping water"). */
export const SOLE_USE =
  /\b(primarily|principally|predominantly|exclusively|solely|whose (use|load) is|(furnishing|providing|engaged in|in the business of) [^.;]{0,40}\bservice)\b/i;
export const LISTED_KINDS: ReadonlySet<RestrictionKind> = new Set(['institution', 'agriculture', 'special_use', 'location', 'dwelling']);

/**
 * Words by which an availability sentence sets a condition ("applicable only to manufacturing plants",
 * "reserved for consumers transferred from ...", "where facilities are installed to coordinate reduction
 * of power requirements"): a condition the other rules do not read sends the tariff to review. Size and
 * phase words after them ("requiring three-phase service", "only where demand exceeds 50 kW") are read by
 * the limits and do not count.
 */
export const CONDITION_WORDS =
  /\b(currently (taking|receiving|served|on)|only|exclusively|solely|reserved|restricted|requir(e|es|ed|ing)|must|provided (that|the)|installed|transferred|formerly|previously|who (have|has|own|owns|operate|operates|use|uses|install|installs|agree|agrees)|whose (use|load|operation|business|facilit\w*)|qualif(y|ies|ying|ied)|in lieu|participat\w*|enroll\w*|elect(s|ing)? to)\b/i;
export const SIZE_CONDITION =
  /^[^.;]{0,12}\b(\d[\d,.]*\s?(kw|kva|kwh|kv|amps?|hp|volts?)|(single|three|3|poly|multi)[- ]?phase|transformer|demand|capacity|voltage|load of|kilowatt|one (point|meter)|a (single )?meter|metered|delivery point|point of delivery|service (at|from)|residential)\b/i;

/** Outside availability sentences only the strongest of them count ("customers using service exclusively for ..."). */
export const STRONG_CONDITION_WORDS = /\b(exclusively|solely|reserved|restricted to|installed|transferred|formerly)\b/i;
