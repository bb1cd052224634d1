/**
 * What a tariff's own applicability text says about who may take it (data/reference/README.md, "Who may take a
 * tariff"). Pure: no I/O. The class (tariff-class.ts) reads the name for purpose, service type and voltage; this
 * reads the name *and the description* for the rest of what a utility's "Availability" paragraph states, with the
 * words of applicability-words.ts. Clauses that exclude ("not available for resale, standby or auxiliary service",
 * "except schools") are removed before the restriction words are looked for: they restrict nobody who asks for the
 * ordinary rate.
 */
import { DATE_IN_NAME } from './revisions';
import { demandLimitsNamed } from './tariff-class';
import {
  EXCLUDING_CLAUSE,
  AVAILABILITY,
  GENERAL_NAME,
  GENERAL_DESCRIPTION,
  DESCRIBED_PRIMARY,
  SERVED_AT_KV,
  OVER_VOLTS,
  CUSTOMER_OWNED_TRANSFORMATION,
  DESCRIBED_TRANSMISSION,
  RETAIL_ACCESS,
  LOAD_FACTOR,
  KWH_MIN,
  KWH_MAX,
  NEUTRAL_NAME_WORDS,
  CODE,
  INCLUSIVE,
  SOLE_USE,
  LISTED_KINDS,
  CONDITION_WORDS,
  SIZE_CONDITION,
  STRONG_CONDITION_WORDS,
  type RestrictionKind,
  type Rule,
} from './applicability-words';

export type { RestrictionKind };

export interface Restriction {
  kind: RestrictionKind;
  /** The words of the record that state it, as written. */
  words: string;
  /** Where they stand: in the rate's name, or in an availability sentence of its description (`description`), or elsewhere in the description (`mention`, weaker: a reader should check). */
  source: 'name' | 'description' | 'mention';
}

export interface StatedLimits {
  kwMin: number | null;
  kwMax: number | null;
  kwhMin: number | null;
  kwhMax: number | null;
  /** Minimum load factor as a fraction (0.4 for "40 % load factor"). */
  loadFactorMin: number | null;
  /** Service phase the rate is limited to. */
  phase: 'single' | 'three' | null;
  /** The name or availability text names three-phase service (alone or beside single-phase). */
  mentionsThreePhase: boolean;
}

export interface ApplicabilityReading {
  /** Words that show the rate is a general-service one for its sector, or null when nothing does. */
  generalEvidence: string | null;
  restrictions: Restriction[];
  limits: StatedLimits;
  /** Service at a voltage above secondary, as the description states it (for records whose class has no voltage). */
  describedVoltage: 'primary' | 'transmission' | null;
  /** A voltage above secondary its name states in volts ("(Over 600 Volt)": primary), which outranks a published category. */
  namedVoltage: 'primary' | null;
  /** A condition an availability sentence sets that no other rule reads, as written (with a little context). */
  unreadCondition: string | null;
  /** Words of the name no rule reads (neither a general-service word, a restriction, a code nor the utility's name). */
  unreadWords: string[];
  /** The record's words that say it is delivery (wires) service for customers who buy power elsewhere. */
  retailAccess: string | null;
}

/** Restriction words, each with the kind it states. Name and description are both read with these. */
const RULES: readonly Rule[] = [
  {
    kind: 'closed',
    pattern:
      /\b(closed|frozen|grandfathered|no longer (available|offered)|not available to new|no new (customers|members|accounts|service)|existing (customers|installations|services) only|(only )?(for|to) (those |the )?existing (customers|members|accounts|locations|installations)|prior to \w+ \d{1,2},? \d{4}|limited to (customers|members|accounts) (served|receiving|taking) (service )?(on|under) th(is|e) (rate|schedule)|in effect (on|prior to))\b/i,
  },
  {
    kind: 'institution',
    pattern:
      /\b(manufactur\w*|nursing|restaurants?|schools?|school district|educational|education institutions?|churche?s?|religious|places? of worship|synagogues?|government(al)?|municipal(ity|ities)? (accounts?|facilities|buildings?|departments?|loads?|meters?|general fund|service|pumping|use)|city (owned|departments?|buildings?|accounts?|facilities|use|government)|town (owned|buildings?|accounts?|facilities)|county (owned|buildings?|accounts?|facilities|government)|public (authorit(y|ies)|buildings?|schools?|agenc(y|ies)|housing|entit(y|ies)|institutions?)|interdepartmental|military|army|air force|naval|non-?profit|not[- ]for[- ]profit|charitable|universit(y|ies)|colleges?|hospitals?|state (agenc(y|ies)|facilities|government|institutions?)|federal (government|facilities|agenc(y|ies))|tribal|armory|fire (stations?|departments?)|volunteer fire)\b/i,
  },
  {
    kind: 'agriculture',
    pattern:
      /\b(farms?|farming|agricultur\w*|irrigat\w*|grain|crop|poultry|dairy|livestock|greenhouses?|ranch(es)?|orchards?|cotton gins?|feed ?lots?|aquaculture|pivot)\b/i,
  },
  {
    kind: 'equipment',
    pattern:
      /\b(geothermal|ground[- ]source|heat pumps?|electric (space |water )?heat(ing)?|space heat(ing)?|water heat(ing|ers?)|(all|total)[- ]electric (homes?|houses?|buildings?|residences?|dwellings?|premises|structures|living|rate|schedule)|electrically heated|\(all[- ]electric\)|dual heat|ripple|interrupt\w*|sub[- ]?meter(ed)?|thermal storage|storage (heat(ing)?|water)|energy storage|batter(y|ies)|electric vehicles?|\bev\b|ev charg\w*|vehicle charg\w*|charging stations?|dual[- ]fuel|off[- ]peak (heating|storage)|snow ?melt|x-?ray|welders?|motors? (only|service)|air[- ]condition\w* (only|service)|ice (making|storage)|controlled (water|heat|load|service|circuit)|load control|interruptible|curtailable|demand response|separately metered (water|heat|load|circuit))\b/i,
  },
  {
    kind: 'generation',
    pattern:
      /\b(net[- ](energy[- ])?meter(ing|ed)?|net billing|distributed generat\w*|on-?site generat\w*|customer[- ]owned generat\w*|customer[- ]generators?|own generat\w*|self[- ]generat\w*|co-?generat\w*|small power produc\w*|qualifying facilit\w*|parallel (generat\w*|operation)|renewable (energy )?(generat\w*|resource|facility|systems?)|solar|photovoltaic|\bpv\b|wind (turbine|generat\w*|energy)|generating (facilit\w*|units?|systems?)|standby|back-?up|supplementa(l|ry) (power|service)|partial requirements?|maintenance power|net requirements|\bdg\b|buy[- ]?all|sell[- ]?all)\b/i,
  },
  {
    kind: 'multi_account',
    pattern:
      /\b(multiple (accounts|locations|meters|premises|sites|points of delivery)|several (accounts|locations|meters)|aggregat(e|ed|ion) (accounts|load|meters|demand|billing)|two or more (accounts|locations|meters|premises)|(\d+|ten|five|three) or more (accounts|locations|meters|premises|stores|facilities)|chain|combined (billing|accounts|meters)|conjunctive|coincident (billing|demand) of (multiple|several|all))\b/i,
  },
  {
    kind: 'program',
    pattern:
      /\b(pilot|experimental|trial|demonstration|limited (enrollment|enrolment|participation|availability|number|to the first)|first \d[\d,]* (customers|participants|applicants)|on a first[- ]come|subscription|economic development|business (development|retention|attraction|incentive)|incentive rate|new load|load (growth|retention)|low[- ]income|life-?line|assistance|medical|senior citizens?|green (power|energy|pricing)|renewable (energy )?(option|program|choice|credit)|community solar|pre-?pa(id|y)|prepayment|critical peak|peak time rebate|real[- ]time pricing|market[- ]based|day[- ]ahead|transition program)\b/i,
  },
  {
    kind: 'special_use',
    pattern:
      /\b(non-?commercial (use|purposes?)|no commercial (use|purposes?)|weekends?|resale|wholesale|temporary|construction|seasonal|street ?light\w*|area light\w*|security light\w*|outdoor light\w*|traffic|signals?|unmetered|flat[- ]rate service|sign service|billboards?|cathodic|telecommunications?|communication (equipment|devices)|cable (tv|television)|amplifiers?|oil ?field|oil and gas|pumping|pumps?|wells?|sewage|wastewater|water (works|treatment|utilit(y|ies))|lift stations?|mining|mines?|crypto\w*|data centers?|blockchain|cannabis|marijuana|grow (operations?|facilities)|stock ?tanks?|recreational|campgrounds?|cabins?|boat ?(docks?|slips?|houses?)|docks?|marinas?|camps?|hunting|vacation|barns?|sheds?|garages?|gates?|yard lights?|shops?)\b/i,
  },
  {
    kind: 'location',
    pattern:
      /\b(villages?|islands?|district of|city limits|non[- ]?city|in[- ]city|(inside|outside)( the)? (city|town|corporate)( limits)?|within the (city|town|corporate) limits|rural|urban|suburban)\b/i,
  },
  {
    kind: 'dwelling',
    pattern:
      /\b(single[- ]family|one[- ]family|individual (private )?(dwelling|residence|family)|separately metered (dwelling|residence|apartment|unit)s?|individually metered|one meter|each (dwelling|apartment|living) unit|private residences?|multi-?family dwelling units?|mobile homes?)\b/i,
  },
  {
    kind: 'not_a_rate',
    pattern: /\b(rider|surcharge|adjustment (clause|charge|rider)|public benefits?|add-?on|credit (rider|program))\b/i,
  },
];

function unreadWords(name: string, utilityName: string): string[] {
  const utilityWords = new Set(utilityName.toLowerCase().match(/[a-z]+/g) ?? []);
  const allCaps = name === name.toUpperCase();
  const out: string[] = [];
  // Letters joined by slashes ("A/E", "E/H") abbreviate a condition the rules cannot expand.
  for (const m of name.matchAll(/\b[A-Za-z]{1,2}\/[A-Za-z]{1,2}\b/g)) if (!/^c\/i$/i.test(m[0])) out.push(m[0]);
  // A date in the name ("(Effective from January 01, 2015)") dates the record; it restricts nobody.
  const undated = name.replace(new RegExp(DATE_IN_NAME.source, 'gi'), ' ').replace(/\beffective( from| date| on)?\b/gi, ' ');
  for (const word of undated.replace(/\b[A-Za-z]{1,2}\/[A-Za-z]{1,2}\b/g, ' ').match(/[A-Za-z0-9.]+/g) ?? []) {
    const lower = word.toLowerCase().replace(/\.$/, '');
    if (!lower || /^[\d.,]+$/.test(lower) || NEUTRAL_NAME_WORDS.has(lower) || utilityWords.has(lower)) continue;
    if (/^[a-z]+s$/.test(lower) && NEUTRAL_NAME_WORDS.has(lower.slice(0, -1))) continue;
    if (CODE.test(lower) || (!allCaps && CODE.test(word)) || (allCaps && word.length <= 3)) continue;
    out.push(word);
  }
  return out;
}

/** Words split into sentences; an abbreviation's period ("No.", "approx.") is rare enough in these texts to ignore. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.;:!?])\s+|\n+|\s\*\s?|\s-\s(?=[A-Z])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A closed word that qualifies a charge, rider or option ("Additional Meter Charge (FROZEN)", "the ... rider is
 * closed") closes that charge, not the rate.
 */
const QUALIFIED_CHARGE =
  /\b(charges?|fees?|riders?|credits?|provisions?|options?|discounts?|adjustments?|programs?)\s*(?:\(\s*|\b(?:is|are|has been|have been|was|were)\s+(?:now\s+)?)$/i;

function ruleMatches(text: string, source: Restriction['source']): Restriction[] {
  const out: Restriction[] = [];
  for (const rule of RULES) {
    const m =
      rule.kind === 'closed'
        ? [...text.matchAll(new RegExp(rule.pattern.source, 'gi'))].find(
            (c) => !QUALIFIED_CHARGE.test(text.slice(Math.max(0, c.index! - 60), c.index!)),
          )
        : rule.pattern.exec(text);
    if (m) out.push({ kind: rule.kind, words: m[0], source });
  }
  return out;
}

/** Number of kW or kWh written with thousands separators. */
const num = (s: string) => Number(s.replace(/,/g, ''));

function limitsOf(name: string, availability: string): StatedLimits {
  const byName = demandLimitsNamed(name);
  const byText = demandLimitsNamed(availability);
  const pick = (a: number | null, b: number | null, f: (x: number, y: number) => number) => (a === null ? b : b === null ? a : f(a, b));
  let kwMin = pick(byName.min, byText.min, Math.max);
  let kwMax = pick(byName.max, byText.max, Math.min);
  if (kwMin !== null && kwMax !== null && kwMin >= kwMax) {
    kwMin = byName.min;
    kwMax = byName.max;
  }
  const withName = `${name}. ${availability}`;
  const allIn = (patterns: RegExp[]) => patterns.flatMap((p) => [...withName.matchAll(p)].map((m) => num(m[1]!)));
  const kwhMins = allIn(KWH_MIN);
  const kwhMaxes = allIn(KWH_MAX);
  let kwhMin = kwhMins.length ? Math.max(...kwhMins) : null;
  let kwhMax = kwhMaxes.length ? Math.min(...kwhMaxes) : null;
  if (kwhMin !== null && kwhMax !== null && kwhMin >= kwhMax) {
    kwhMin = null;
    kwhMax = null;
  }
  const lf = LOAD_FACTOR.exec(availability);
  const loadFactorMin = lf ? Number(lf[1] ?? lf[2]) / 100 : null;
  const text = `${name}\n${availability}`;
  const SINGLE = /\bsingle[- ]?phase\b|\b1[- ]phase\b|\b1 ?ph\b/i;
  const THREE = /\b(three|3|poly|multi)[- ]?(phase|ph)\b|\bpoly\b/i;
  const single = SINGLE.test(text);
  const three = THREE.test(text);
  // The name's phase first (a schedule's single-phase and polyphase records often share one description offering
  // both); three-phase only when the name says so (a description naming it usually offers it beside single-phase).
  const named = SINGLE.test(name) !== THREE.test(name) ? (SINGLE.test(name) ? 'single' : 'three') : null;
  const phase = named ?? (single && !three ? 'single' : null);
  return { kwMin, kwMax, kwhMin, kwhMax, loadFactorMin, phase, mentionsThreePhase: three };
}

/**
 * Restriction words only a rate's name states (in a description they name other things: "off-peak
 * hours", "special conditions"): a name built around them is the restriction itself.
 */
const NAME_RULES: readonly Rule[] = [
  {
    kind: 'equipment',
    pattern: /\b(all[- ]electric|total electric|off[- ]peak|heat(ing)?|e\/h|ets)\b(?!.*\b(rate|service) (of|for) (all|any)\b)/i,
  },
  { kind: 'program', pattern: /\b(special|contract|negotiated|individual|pilot)\b/i },
  // Prices set by events the utility calls (critical peak pricing, peak time rebates, variable peak pricing): no bill
  // priced from a usage profile holds them.
  { kind: 'program', pattern: /\b(cpp|critical peak|peak time rebate|ptr|variable peak|vpp)\b/i },
];

/** The first condition of a sentence that no other rule reads, as written. */
function unreadCondition(sentence: string, words: RegExp = CONDITION_WORDS): string | null {
  for (const m of sentence.matchAll(new RegExp(words.source, 'gi'))) {
    if (SIZE_CONDITION.test(sentence.slice(m.index! + m[0].length))) continue;
    const start = Math.max(0, sentence.lastIndexOf(' ', Math.max(0, m.index! - 40)) + 1);
    let end = Math.min(sentence.length, m.index! + m[0].length + 80);
    if (end < sentence.length) end = Math.max(m.index! + m[0].length, sentence.lastIndexOf(' ', end));
    return sentence.slice(m.index! - 40 <= 0 ? 0 : start, end).trim();
  }
  return null;
}

/** Restrictions that count wherever the description states them, in an availability sentence or not. */
const MENTION_RULES: readonly Rule[] = [
  // A charge for additional meters ("Additional Meter Charge") asks nothing of a customer with one meter.
  { kind: 'equipment', pattern: /\b(2nd|second|additional|sub-?) ?meter(ed)?\b(?!\s*(charges?|fees?))|\(all[- ]electric\)/i },
  { kind: 'special_use', pattern: /\b(non-?commercial (use|purposes?)|no commercial (use|purposes?))\b/i },
  // A rate written for one customer: "established for the Thomas Rest Haven", "for Tower Metal Products L.P.".
  {
    kind: 'single_customer',
    pattern:
      /\b(established|designed|created|negotiated|written) for\b|\b(special|individual|negotiated) (contract|agreement)\b|\b[A-Z][\w&]*(?: [A-Z][\w&]*)* (?:L\.?P\.?|LLC|Inc\.?|Corp\.?|Corporation|Company)(?=\W|$)/,
  },
  {
    kind: 'program',
    pattern:
      /\b(pilot|experimental|limited (enrollment|enrolment|participation|availability)|first \d[\d,]* (customers|participants|applicants))\b/i,
  },
];
const MENTIONED_KINDS: ReadonlySet<RestrictionKind> = new Set(['closed']);

/** Reads a tariff's name and description (see the module comment). Never throws. */
export function readApplicability(t: { name: string; description: string; sector?: string; utilityName?: string }): ApplicabilityReading {
  // "Non-interruptible", "non-profit" and "Residential and Farm" (farm homes beside others) restrict nobody.
  const name = t.name
    .replace(/\b(non|un)-?\s?(interruptible|curtailable|controlled|residential|farm|profit)\b/gi, ' ')
    .replace(
      /\b(residential|residence|home|commercial|general)\s*(and|&|\/)\s*farms?\b|\bfarms?\s*(and|&|\/)\s*(home|residential|residence|commercial)\b/gi,
      ' ',
    );
  const description = t.description.replace(/\s+/g, ' ');
  const kept = sentences(description).map((s) => s.replace(EXCLUDING_CLAUSE, ' '));
  const availabilitySentences = kept.filter((s) => AVAILABILITY.test(s));
  const availability = availabilitySentences.join(' ');
  const elsewhere = kept.filter((s) => !AVAILABILITY.test(s)).join(' ');
  const described = availabilitySentences.flatMap((s) =>
    ruleMatches(s, 'description').filter(
      (r) => r.kind !== 'not_a_rate' && !(LISTED_KINDS.has(r.kind) && INCLUSIVE.test(s.replace(r.words, ' ')) && !SOLE_USE.test(s)),
    ),
  );
  const restrictions: Restriction[] = [
    ...ruleMatches(name, 'name'),
    ...NAME_RULES.flatMap((rule) => {
      const m = rule.pattern.exec(name);
      return m ? [{ kind: rule.kind, words: m[0], source: 'name' as const }] : [];
    }),
    ...described,
    ...ruleMatches(elsewhere, 'mention').filter((r) => MENTIONED_KINDS.has(r.kind)),
    // In an availability sentence these restrict; elsewhere in the description they are for a reader to check.
    ...MENTION_RULES.flatMap((rule): Restriction[] => {
      const stated = rule.pattern.exec(availability);
      if (stated) return [{ kind: rule.kind, words: stated[0], source: 'description' as const }];
      const mentioned = rule.pattern.exec(elsewhere);
      return mentioned ? [{ kind: rule.kind, words: mentioned[0], source: 'mention' as const }] : [];
    }),
  ];
  if (
    t.sector &&
    t.sector !== 'residential' &&
    /\bresiden(tial|ce)\b/i.test(name) &&
    !/\b(commercial|general|business|non-?residential)\b/i.test(name)
  ) {
    restrictions.push({ kind: 'dwelling', words: /\bresiden(tial|ce)\b/i.exec(name)![0], source: 'mention' });
  }
  const byKind = new Map<string, Restriction>();
  for (const r of restrictions) if (!byKind.has(r.kind)) byKind.set(r.kind, r);
  const general = GENERAL_NAME.exec(name) ?? GENERAL_DESCRIPTION.exec(availability);
  // A rate open at secondary voltage as well ("at primary or secondary voltages") is open to secondary customers.
  const primary = /\bsecondary\b/i.test(`${t.name} ${availability}`) ? null : DESCRIBED_PRIMARY.exec(availability);
  const ownsTransformation = CUSTOMER_OWNED_TRANSFORMATION.test(t.name) || CUSTOMER_OWNED_TRANSFORMATION.test(availability);
  const kv = /\bsecondary\b/i.test(`${t.name} ${availability}`) ? null : SERVED_AT_KV.exec(availability);
  const kvVoltage = kv ? (num(kv[1]!) >= 69 ? 'transmission' : num(kv[1]!) >= 2 ? 'primary' : null) : null;
  const describedVoltage = primary
    ? DESCRIBED_TRANSMISSION.test(primary[0])
      ? 'transmission'
      : 'primary'
    : (kvVoltage ?? (ownsTransformation ? 'primary' : null));
  const retail = RETAIL_ACCESS.exec(t.name) ?? RETAIL_ACCESS.exec(availability);
  return {
    generalEvidence: general ? general[0] : null,
    restrictions: [...byKind.values()],
    limits: limitsOf(t.name, availability),
    describedVoltage,
    // Volts above 600 are primary distribution ("DS-2 Small General Service (Over 600 Volt)").
    namedVoltage: OVER_VOLTS.exec(t.name) && num(OVER_VOLTS.exec(t.name)![2]!) >= 600 ? 'primary' : null,
    retailAccess: retail ? retail[0] : null,
    unreadWords: unreadWords(t.name, t.utilityName ?? ''),
    unreadCondition:
      availabilitySentences.map((sentence) => unreadCondition(sentence)).find((c) => c !== null) ??
      kept
        .filter((sentence) => !AVAILABILITY.test(sentence))
        .map((sentence) => unreadCondition(sentence, STRONG_CONDITION_WORDS))
        .find((c) => c !== null) ??
      null,
  };
}
