/**
 * Revisions of one schedule. URDB keeps a record per revision of a utility's rate schedule and
 * often leaves the older one without an end date, so both look current and search, rate analysis
 * and due diligence offer both. This module recognises records that are revisions of one schedule
 * by a written rule (data/reference/README.md, "Revisions of one schedule") and says which record
 * superseded which. Pure: no I/O.
 *
 * Two records are revisions of one schedule when they are of one utility (as the record publishes
 * it: a merged utility's records stay its own under its successor), state, sector, service type and
 * purpose, at the same voltage (or one of them states none), both publish an effective date, the
 * newer's strictly later, and
 * - **same name**: their names have the same words once case, punctuation, word order and a date
 *   in the name ("2014", "October 2013", "1/1/2015") are ignored, and, when one of them states no
 *   voltage or both secondary, the words "secondary" (voltage, service); or
 * - **revision number**: both names carry a schedule code of capital letters, a hyphen and a
 *   number ("TOU-MB-4", "GS-LVS-11") with the same letters, the newer's number is higher, the rest
 *   of the names has the same words as above (at least one besides "schedule", "rate" and "no"; at secondary
 *   voltage, beside the words of secondary service: "LE-23" and "Large Electric Service Secondary (LE-24)"),
 *   and the utility numbers its codes by revision: among its records with an effective date (all
 *   sectors), no two numbers of one code's letters take effect on the same day, and a higher
 *   number never takes effect before a lower one. A utility that numbers distinct schedules
 *   ("GS-1" and "GS-2", both effective 2014-10-01) never matches this way.
 *
 * A record's successor is its revision with the earliest later effective date (then the smallest
 * id). A record with a successor is superseded: it names the successor, and when it published no
 * expiration date it gets the day before the successor's effective date.
 */

import { dayNumber, isoDateOfDay } from '../../platform/dates';

/** What the rule reads of a tariff. */
export interface RevisionCandidate {
  id: string;
  name: string;
  utilityId: string;
  state: string | null;
  sector: string;
  effectiveDate: string | null;
  expirationDate: string | null;
  serviceType: string;
  voltage: string | null;
  purpose: string;
  /**
   * The utility id the record was published under, when the tariff is filed under another (a merged
   * utility's successor): the predecessor's schedules stay its own, never revisions of the successor's.
   */
  publishedUtilityId?: string;
}

export type RevisionRule = 'same_name' | 'revision_number';

/** One application of the rule: record `id` is superseded by its next revision `supersededBy`. */
export interface Supersession {
  id: string;
  supersededBy: string;
  rule: RevisionRule;
  /**
   * The expiration date the rule gave the record, the day before its successor took effect; null when
   * the record published one, which it keeps.
   */
  expirationDate: string | null;
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/** A date in a name: "1/1/2015", "10/2013", "October 2013", "Jan. 1, 2014", "2014", with an "effective" before it. */
export const DATE_IN_NAME = new RegExp(
  '(?:\\beff(?:ective|\\.)?\\s*:?\\s*)?(?:\\b\\d{1,2}/(?:\\d{1,2}/)?(?:19|20)?\\d\\d\\b' +
    `|(?:\\b${MONTH}\\s+(?:\\d{1,2},?\\s+)?)?\\b(?:19|20)\\d\\d\\b)`,
  'gi',
);

/**
 * The words of a name that identify its schedule, without a date: lower case, sorted, then its
 * numbers in the order they come ("Large Power 2, Level 3" is not "Large Power 3, Level 2"). "<",
 * ">" and "+" count as words ("(<10 kW)" and "(>10 kW)", "200 AMP" and "200+ AMP" are other schedules).
 */
export function nameWords(name: string): string {
  const lower = name.toLowerCase();
  // Every date has a year: a name without two digits in a row has none (most names; the regular expression is slow).
  const undated = /\d\d/.test(lower) ? lower.replace(DATE_IN_NAME, ' ') : lower;
  const tokens = undated
    .replace(/[<>+]/g, ' $& ')
    .split(/[^a-z0-9<>+]+/)
    .filter(Boolean);
  const numbers = tokens.filter((w) => /^\d+$/.test(w));
  const words = tokens
    .filter((w) => !/^\d+$/.test(w))
    .sort()
    .join(' ');
  return numbers.length ? `${words} #${numbers.join(' ')}` : words;
}

/** A schedule code: capital letters (hyphen-separated groups), a hyphen, a number of 1 to 3 digits. */
const CODE = /(?<![A-Za-z0-9])([A-Z]{1,6}(?:-[A-Z]{1,6})*)-(\d{1,3})(?![A-Za-z0-9])/g;

/** The words of secondary service, left out where a name's voltage is secondary or unstated. */
const VOLTAGE_WORDS = /\bsecondary(\s+(voltage|service|level|delivery))?\b/gi;

/** Words that alone do not name a schedule. */
const FILLER = new Set(['schedule', 'rate', 'no']);

export interface ScheduleCode {
  /** The letters ("TOU-MB"). */
  letters: string;
  /** The number after the last hyphen: the revision, where the utility numbers revisions. */
  number: number;
  /** The other words of the name (nameWords of the name without the code). */
  rest: string;
  /** The other words without those of secondary service (as `wordsBesideVoltage`). */
  restBesideVoltage: string;
}

/** Every schedule code of a name, each with the rest of the name. */
export function scheduleCodes(name: string): ScheduleCode[] {
  return [...name.matchAll(CODE)].map((m) => {
    const rest = `${name.slice(0, m.index)} ${name.slice(m.index + m[0].length)}`;
    return { letters: m[1], number: Number(m[2]), rest: nameWords(rest), restBesideVoltage: nameWords(rest.replace(VOLTAGE_WORDS, ' ')) };
  });
}

/** One utility (as published) in one state. */
const utilityKey = (t: RevisionCandidate) => `${t.publishedUtilityId ?? t.utilityId}|${t.state ?? ''}`;
/** Records that may be revisions of one another: one utility, state, sector, service type and purpose. */
const groupKey = (t: RevisionCandidate) => `${utilityKey(t)}|${t.sector}|${t.serviceType}|${t.purpose}`;

/**
 * The utilities (utility id and state) whose schedule codes number revisions: among their records
 * with an effective date, no two numbers of one code's letters take effect on the same day and a
 * higher number never takes effect before a lower one.
 */
export function utilitiesNumberingRevisions(list: readonly RevisionCandidate[]): Set<string> {
  return numberingOf(list.map(prepare));
}

function numberingOf(list: readonly Prepared[]): Set<string> {
  const byLetters = new Map<string, Array<{ number: number; date: string }>>();
  const utilities = new Set<string>();
  for (const { t, codes } of list) {
    utilities.add(utilityKey(t));
    if (t.effectiveDate === null) continue;
    for (const c of codes) {
      const key = `${utilityKey(t)}\u0000${c.letters}`;
      let seen = byLetters.get(key);
      if (!seen) byLetters.set(key, (seen = []));
      seen.push({ number: c.number, date: t.effectiveDate });
    }
  }
  for (const [key, seen] of byLetters) {
    const ordered = seen.every((a) => seen.every((b) => a.number >= b.number || a.date < b.date));
    if (!ordered) utilities.delete(key.slice(0, key.indexOf('\u0000')));
  }
  return utilities;
}

interface Prepared {
  t: RevisionCandidate;
  group: string;
  words: string;
  /** The name's words without those of secondary service ("Secondary Voltage", "(Secondary)"). */
  wordsBesideVoltage: string;
  codes: ScheduleCode[];
}

const prepare = (t: RevisionCandidate): Prepared => ({
  t,
  group: groupKey(t),
  words: nameWords(t.name),
  wordsBesideVoltage: nameWords(t.name.replace(VOLTAGE_WORDS, ' ')),
  codes: scheduleCodes(t.name),
});

/**
 * How `newer` is a revision of `older`, or null. `numbersRevisions`: the utility numbers its schedule
 * codes by revision (utilitiesNumberingRevisions over all its records).
 */
function ruleBetween(older: Prepared, newer: Prepared, numbersRevisions: boolean): RevisionRule | null {
  const a = older.t;
  const b = newer.t;
  if (older.group !== newer.group) return null;
  if (a.voltage !== null && b.voltage !== null && a.voltage !== b.voltage) return null;
  if (a.effectiveDate === null || b.effectiveDate === null || b.effectiveDate <= a.effectiveDate) return null;
  if (older.words !== '' && older.words === newer.words) return 'same_name';
  // Both at secondary voltage or one stating none: the voltage words name the voltage the schedule always had
  // (Northern States Power's "General Service (A14)" of 2015 and "General Service (A14) Secondary Voltage" of 2020).
  // Only secondary: a schedule named for primary service beside one naming none is usually the primary twin of a secondary
  // schedule (SDG&E "TOU-A" and "TOU-A Primary").
  const secondary = (a.voltage ?? 'secondary') === 'secondary' && (b.voltage ?? 'secondary') === 'secondary';
  if (secondary && older.wordsBesideVoltage !== '' && older.wordsBesideVoltage === newer.wordsBesideVoltage) return 'same_name';
  if (!numbersRevisions) return null;
  // The same words, or (at secondary voltage) the same words beside those of secondary service: Entergy New Orleans's
  // "Large Electric Service (LE-23)" of 2016 and "Large Electric Service Secondary (LE-24)" of 2019 (issue 45).
  const sameRest = (c: ScheduleCode, d: ScheduleCode) => d.rest === c.rest || (secondary && d.restBesideVoltage === c.restBesideVoltage);
  for (const c of older.codes) {
    if (!c.rest.split(' ').some((w) => /[a-z]/.test(w) && !FILLER.has(w))) continue;
    if (newer.codes.some((d) => d.letters === c.letters && d.number > c.number && sameRest(c, d))) return 'revision_number';
  }
  return null;
}

/** How `newer` is a revision of `older` by the rule, or null (a pair alone: the utility's numbering is judged on these two). */
export function revisionRule(older: RevisionCandidate, newer: RevisionCandidate): RevisionRule | null {
  const pair = [prepare(older), prepare(newer)];
  return ruleBetween(pair[0], pair[1], numberingOf(pair).has(utilityKey(older)));
}

/** The day before an ISO date. */
export function dayBefore(isoDate: string): string {
  return isoDateOfDay(dayNumber(isoDate) - 1);
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every record that a later revision supersedes, in the order of `list`. */
export function findSupersessions(list: readonly RevisionCandidate[]): Supersession[] {
  const prepared = list.map(prepare);
  const numbering = numberingOf(prepared);
  const groups = new Map<string, Prepared[]>();
  for (const p of prepared) {
    if (p.t.effectiveDate === null) continue;
    let g = groups.get(p.group);
    if (!g) groups.set(p.group, (g = []));
    g.push(p);
  }
  const out: Supersession[] = [];
  for (const group of groups.values()) {
    // Oldest first (then by id): an older record's successor is the first later one that is its revision.
    group.sort((x, y) => byText(x.t.effectiveDate!, y.t.effectiveDate!) || byText(x.t.id, y.t.id));
    const numbersRevisions = numbering.has(utilityKey(group[0].t));
    group.forEach((older, i) => {
      for (let j = i + 1; j < group.length; j++) {
        const newer = group[j];
        const rule = ruleBetween(older, newer, numbersRevisions);
        if (!rule) continue;
        out.push({
          id: older.t.id,
          supersededBy: newer.t.id,
          rule,
          expirationDate: older.t.expirationDate === null ? dayBefore(newer.t.effectiveDate!) : null,
        });
        return;
      }
    });
  }
  const position = new Map(list.map((t, i) => [t.id, i]));
  return out.sort((x, y) => position.get(x.id)! - position.get(y.id)!);
}

/**
 * The tariffs with the rule applied: a superseded one names its successor (`supersededBy`) and, when
 * it published no expiration date, expires the day before its successor took effect. Others get
 * `supersededBy: null`. `publishedUtilityIdOf`: the utility id a record was published under, when
 * it differs from its `utilityId`. Returns new objects; the input is left as it was.
 */
export function applySupersessions<T extends RevisionCandidate & { supersededBy?: string | null }>(
  list: readonly T[],
  publishedUtilityIdOf: (t: T) => string | undefined = () => undefined,
): { tariffs: T[]; supersessions: Supersession[] } {
  const supersessions = findSupersessions(
    list.map((t) => {
      const published = publishedUtilityIdOf(t);
      return published === undefined || published === t.utilityId ? t : { ...t, publishedUtilityId: published };
    }),
  );
  const byId = new Map(supersessions.map((s) => [s.id, s]));
  const tariffs = list.map((t) => {
    const s = byId.get(t.id);
    if (!s) return { ...t, supersededBy: null };
    return { ...t, supersededBy: s.supersededBy, expirationDate: s.expirationDate ?? t.expirationDate };
  });
  return { tariffs, supersessions };
}
