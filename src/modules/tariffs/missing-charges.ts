/**
 * Charges a tariff's description names that its rates lack: a URDB record whose description
 * states "Demand Charge: $8.50 per kW of billing demand" but whose rates have no demand charge
 * prices every bill without it. Pure: no I/O. Bills say so in `assumptions` (pricing/service.ts);
 * rate analysis can send such tariffs to review with it (keep the signature).
 *
 * The rules are conservative. Each needs a dollar amount in the same clause as the words naming
 * the charge (a clause: a line, a sentence, a `*` or `;` item; a heading line such as "Demand
 * Charges:" reads with the lines under it, a line going on with "plus" or in lower case with the
 * one before), and a clause that also speaks of something a record's rates never hold names
 * nothing: a credit, discount or rebate, a transformer's or installed capacity, a rider, an option,
 * a penalty, standby, back-up, interruptible or generation service, reactive demand, an additional
 * meter, a connection or one-time fee, a contract, a season or a year. Three kinds, each only when
 * the rates lack it:
 *
 * 1. **Demand charge** (no non-zero facility, time-of-use or coincident-peak demand rate):
 *    "$X per kW" ("/kW", "per kilowatt"; "per kVA" only "of ... demand"), not in a clause about a
 *    minimum, with "demand" in the 80 characters before it, or "of (billing) demand" or "demand
 *    charge" right after it. The items of a list ("..., plus excess kVAR charges") are read apart.
 * 2. **Customer charge** (no non-zero fixed charge): "customer charge", "basic service charge",
 *    "facilities charge", "monthly charge", ... with "$X" within 40 characters after it (nothing
 *    else named between) or right before it, not per kWh, kW, kVA, hp, lamp or other unit.
 * 3. **Minimum charge** (no minimum charge): "minimum (monthly) charge/bill/billing" or "monthly
 *    minimum" with "$X" within 40 characters after it, no other charge, demand or "(" between, in a
 *    clause that sets no formula ("plus", "+", "greater", "increase", "additional", per kW or kVA),
 *    and $X above the month's fixed charges (a minimum the customer charge covers never binds).
 *
 * Measured on the 13,656 bundled tariffs (pricing README, "Charges the rates lack"): the rules fire
 * on 96 (88 minimum, 7 demand, 1 customer charge). A random 40 of them, read against description
 * and rates, were all right: precision 40/40 (the other 56, read too, had no false alarm). Of 20
 * random tariffs where a looser reading fires (any "$X per kW", charge name or "minimum" before an
 * amount, with the charge absent from the rates) and these rules do not, 15 name no missing charge
 * and 5 name a minimum the rules leave out (3 set by kVA, kW or "plus" a charge; 2 worded
 * "50 kW minimum, not less than $442.50" and "$41.00 plus any increase").
 */
import type { ChargeFrequency, Tariff } from './tariff.model';

type Kind = 'demand' | 'fixed' | 'minimum';

const NAMES: Record<Kind, string> = { demand: 'a demand charge', fixed: 'a customer charge', minimum: 'a minimum charge' };

/** A dollar amount: "$8.50", "$ 1,100.00", "$.50". */
const MONEY = /\$\s?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)/g;

/** Right after an amount: per kW (or kVA), not per kWh. Group 1 is the unit. */
const PER_KW = /^\s*(?:per|\/|a)\s*(kw|kva|kilowatts?)(?![a-z])(?![\s-]*hours?\b)/i;

/** Right after an amount: per unit of something a customer charge is not (usage, demand, equipment). */
const PER_UNIT =
  /^\s*(?:per|\/|a|for each|each|times|x)\s*(?:[a-z-]+\s+){0,3}?(?:kwh|kw|kva|kvar|kilowatt|kilovolt|hp\b|horse|watt|ton\b|lamp|fixture|light|pole|foot|feet|ft\b|mile|unit\b|%)/i;

/** What a clause must not speak of: charges no record's rates hold, or terms that make the amount something else. */
const NOT_A_RATE = new RegExp(
  [
    'credit',
    'discount',
    'rebate',
    'waive',
    'transformer',
    'install',
    'capacity',
    'interrupt',
    'curtail',
    'rider',
    'option',
    'elect(?:s|ing|ed|ion)?\\b',
    'standby',
    'stand-by',
    'back-?up',
    'supplement',
    'maintenance',
    'reactive',
    'kvar',
    'power factor',
    'additional meter',
    'second meter',
    'each additional',
    'connect',
    'late ',
    'returned',
    'deposit',
    'one[- ]time',
    'temporary',
    'contract',
    'generat',
    'year',
    'annual',
    'season',
    'penalt',
    'excess k',
    'horse',
    'lamp',
    'fixture',
  ].join('|'),
  'i',
);

/** Names of a fixed customer charge. */
const FIXED =
  /\b(?:(?:customer|consumer|member|basic|base|facilit(?:y|ies)|meter(?:ing)?|access|account|availability|fixed|monthly|service)[ -]){1,2}charges?\b/gi;
/** Names of a minimum charge. */
const MINIMUM =
  /\b(?:minimum\s+(?:monthly\s+|daily\s+)?(?:service\s+)?(?:charges?|bills?|billing)|monthly\s+minimum(?:\s+(?:charges?|bills?))?)\b/gi;
/** A minimum clause that sets a formula rather than an amount. */
const FORMULA = /\bplus\b|\+|greater|higher|lesser|increase|additional|per\s+(?:kw|kva|kilowatt)|\/\s*kva?\b/i;

/**
 * Clauses: lines, `*`, `•` and `;` items, sentences, whitespace collapsed. A line that goes on
 * ("plus $10.76 per kW", "+ ...", lower case) joins the one before. A heading ("Demand Charges:",
 * a short line without an amount, a colon or a full stop) is put before the clauses under it, up to the
 * first that ends a sentence: it says what they are ("Demand Charges: ... Next 950 kW: $11.28/kW").
 */
function clausesOf(description: string): string[] {
  const out: string[] = [];
  let heading = '';
  let under = 0;
  for (const part of description.split(/\r?\n|[*•;]|(?<=[.!?])\s+(?=[A-Z("$])/)) {
    const s = part.replace(/\s+/g, ' ').trim();
    if (!s) continue;
    if (out.length && (/^[a-z+]/.test(s) || /^plus\b/i.test(s))) {
      out[out.length - 1] += ` ${s}`;
      continue;
    }
    const ends = /[.!?]$/.test(s);
    if (!s.includes('$') && (s.endsWith(':') || (s.length <= 40 && !ends && !s.includes(':')))) {
      heading = s;
      under = 0;
      continue;
    }
    // Quoted as written: a heading right before its clause, else with "..." for the clauses between.
    out.push(heading ? `${heading}${under++ === 0 ? ' ' : ' ... '}${s}` : s);
    if (ends) heading = '';
  }
  return out;
}

/** Dollars of a MONEY match ("$1,100.00" -> 1100). */
function dollars(money: string): number {
  return Number(money.replace(/[$\s,]/g, ''));
}

/**
 * The words quoted: a clause's text from `start` to `end`, or to the clause's end when at most 60
 * characters are left ("... $8.80 for single phase and $11.20 for three phase"); trimmed, inner
 * double quotes made single.
 */
function quote(clause: string, start: number, end: number): string {
  const stop = clause.length - end <= 60 ? clause.length : end;
  return clause
    .slice(start, stop)
    .replace(/[\s,:;=.-]+$/, '')
    .trim()
    .replace(/"/g, "'");
}

function sentence(kind: Kind, words: string): string {
  return `The tariff's description names ${NAMES[kind]} ("${words}") that its rates do not have: the bill leaves it out`;
}

/** "Demand Charge: First 1000 kW: $10.79/kW", "$8.50 per kW of billing demand". */
function demandWords(clause: string): string | null {
  if (NOT_A_RATE.test(clause) || /minimum/i.test(clause)) return null;
  for (const m of clause.matchAll(MONEY)) {
    const at = m.index ?? 0;
    const after = clause.slice(at + m[0].length);
    const unit = PER_KW.exec(after);
    if (!unit) continue;
    let end = at + m[0].length + unit[0].length;
    const trail = /^(?:[\s-]*month)?\s+(?:of|for)\s+(?:the\s+)?(?:[a-z-]+\s+){0,2}?demand\b/i.exec(clause.slice(end));
    if (/kva/i.test(unit[1]) && !trail) continue;
    if (trail) end += trail[0].length;
    const before = clause.slice(Math.max(0, at - 80), at);
    const named = [...before.matchAll(/\bdemand\b/gi)].pop();
    const chargeAfter = /^[^$]{0,30}?\bdemand charges?\b/i.exec(clause.slice(end));
    if (!named && !trail && !chargeAfter) continue;
    if (!named && !trail && chargeAfter) end += chargeAfter[0].length;
    let start = at;
    // Quoted from the name before the amount ("Demand Charge: $8.50 per kW ..."), unless the words after it name the demand.
    if (named && (!trail || /^demand\s+charges?\b/i.test(before.slice(named.index ?? 0)))) {
      start = at - before.length + (named.index ?? 0);
      // The word before "demand" belongs to its name ("Billing Demand", "On-Peak Demand").
      const word = /([A-Za-z-]+)\s+$/.exec(clause.slice(0, start));
      if (word && !/^(?:the|a|of|for|and|or|per|in|on|at|to|by)$/i.test(word[1])) start -= word[0].length;
    }
    return quote(clause, start, end);
  }
  return null;
}

/**
 * A charge's name (`k`, a match in `clause`): where it starts and ends, the 40 characters after
 * it, and the first amount in them (null when none), the amount a name is read with.
 */
function amountAfterName(clause: string, k: RegExpMatchArray) {
  const kStart = k.index ?? 0;
  const kEnd = kStart + k[0].length;
  const after = clause.slice(kEnd, kEnd + 40);
  return { kStart, kEnd, after, next: new RegExp(MONEY.source).exec(after) };
}

/** "Customer Charge: $25.00 per month", "$18.00 Basic Service Charge". */
function fixedWords(clause: string): string | null {
  if (NOT_A_RATE.test(clause) || /minimum/i.test(clause)) return null;
  for (const k of clause.matchAll(FIXED)) {
    const { kStart, kEnd, after, next } = amountAfterName(clause, k);
    let start: number;
    let end: number;
    let moneyEnd: number;
    // Another charge or a word between them ("Facilities Charge = Varies Minnkota Wind Surcharge = $0.003"): not this charge's amount.
    if (next && !/charge|rate|kwh|energy|var(?:y|ies)|[a-z]{3,}\s+[a-z]{3,}\s+[a-z]{3,}/i.test(after.slice(0, next.index))) {
      start = kStart;
      moneyEnd = kEnd + next.index + next[0].length;
      end = moneyEnd;
    } else {
      const before = clause.slice(Math.max(0, kStart - 15), kStart);
      const prev = [...before.matchAll(MONEY)].pop();
      if (!prev || /[a-z]{4}/i.test(before.slice((prev.index ?? 0) + prev[0].length))) continue;
      start = kStart - before.length + (prev.index ?? 0);
      moneyEnd = start + prev[0].length;
      end = kEnd;
    }
    const rest = clause.slice(moneyEnd);
    if (PER_UNIT.test(rest)) continue;
    const per = /^\s*(?:per|\/|a)\s*(?:month|day|bill|meter|customer|service)\b(?:\s*(?:per|\/)\s*month\b)?/i.exec(rest);
    if (per && end === moneyEnd) end += per[0].length;
    return quote(clause, start, end);
  }
  return null;
}

/** Dollars a month the fixed charges bill at least (a 28-day month for daily ones). */
function fixedFloor(charges: ReadonlyArray<{ amount: number; frequency: ChargeFrequency }>): number {
  return charges.reduce(
    (sum, c) => sum + (c.frequency === 'daily' ? c.amount * 28 : c.frequency === 'yearly' ? c.amount / 12 : c.amount),
    0,
  );
}

/** "Minimum Monthly Charge: $30.00", "The minimum charge shall be $12.50". */
function minimumWords(clause: string, floor: number): string | null {
  if (FORMULA.test(clause) || /credit|discount|transformer|install|capacity|horse|rider|option|per\s+(?:installed\s+)?kva/i.test(clause))
    return null;
  for (const k of clause.matchAll(MINIMUM)) {
    const { kStart, kEnd, after, next } = amountAfterName(clause, k);
    if (!next) continue;
    // Another charge named before the amount ("the greater of the facilities charge of $29.73"): the amount is that charge.
    // A condition between them ("minimum charge in Winter ($15.40"): the amount is not the tariff's minimum as such.
    if (/\bcharges?\b|\bdemand\b|\brate\b|\(/i.test(after.slice(0, next.index))) continue;
    const moneyEnd = kEnd + next.index + next[0].length;
    const rest = clause.slice(moneyEnd);
    if (PER_UNIT.test(rest)) continue;
    const perDay = /^\s*(?:per|\/|a)\s*day\b/i.test(rest);
    if (!perDay && dollars(next[0]) <= floor + 1e-9) continue;
    const per = /^\s*(?:per|\/|a)\s*(?:month|day|bill|meter)\b(?:\s*(?:per|\/)\s*month\b)?/i.exec(rest);
    return quote(clause, kStart, moneyEnd + (per ? per[0].length : 0));
  }
  return null;
}

/**
 * The charges `t.description` names that `t.structure` lacks, each a full sentence that names the
 * charge and quotes the description's words; empty when none. At most one sentence per kind
 * (demand, customer, minimum), the first clause that names it.
 */
export function chargesNamedButMissing(t: Pick<Tariff, 'description' | 'structure'>): string[] {
  const description = t.description ?? '';
  if (!description.includes('$')) return [];
  const s = t.structure;
  const hasDemand = [s.demandFlat, s.demandTou, s.demandCoincident].some((d) => d?.periods.some((p) => p.some((tier) => tier.rate !== 0)));
  const hasFixed = s.fixedCharges.some((c) => c.amount !== 0);
  const hasMinimum = s.minimumCharge !== null && s.minimumCharge.amount !== 0;
  if (hasDemand && hasFixed && hasMinimum) return [];
  const found: Partial<Record<Kind, string>> = {};
  const floor = fixedFloor(s.fixedCharges);
  for (const clause of clausesOf(description)) {
    if (!clause.includes('$')) continue;
    if (!hasMinimum && !found.minimum) found.minimum = minimumWords(clause, floor) ?? undefined;
    // The items of a list of charges ("$18.00 Basic Service Charge plus $7.81 per kW ..., plus excess kVAR charges") apart.
    for (const item of clause.split(/,\s+(?=plus\b)/i)) {
      if (!hasDemand && !found.demand) found.demand = demandWords(item) ?? undefined;
      if (!hasFixed && !found.fixed) found.fixed = fixedWords(item) ?? undefined;
    }
  }
  return (['demand', 'fixed', 'minimum'] as const).flatMap((kind) => (found[kind] ? [sentence(kind, found[kind])] : []));
}
