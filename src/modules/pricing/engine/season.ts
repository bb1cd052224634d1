import { MONTH_ABBR } from './calendar';

/** "Jun-Sep", "Jan-May, Oct-Dec": runs of consecutive months (0-based input). */
export function monthRanges(months: number[]): string {
  const runs: string[] = [];
  let i = 0;
  while (i < months.length) {
    let j = i;
    while (j + 1 < months.length && months[j + 1] === months[j] + 1) j++;
    runs.push(i === j ? MONTH_ABBR[months[i]] : `${MONTH_ABBR[months[i]]}-${MONTH_ABBR[months[j]]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

const JANUARY = 0;
const JULY = 6;

/**
 * Summer or winter by the months a season holds (0-based): July but not January is summer, January
 * but not July winter; null for any other months. One test for the engine's season names and the
 * catalog's period names (tariffs/urdb.periods.ts), so a bill and its tariff call a season alike.
 */
export function summerOrWinter(months: readonly number[]): 'summer' | 'winter' | null {
  const jan = months.includes(JANUARY);
  const jul = months.includes(JULY);
  if (jul && !jan) return 'summer';
  if (jan && !jul) return 'winter';
  return null;
}

function baseName(months: number[]): string {
  const season = summerOrWinter(months);
  if (season) return season;
  // Neither January nor July (else both).
  if (!months.includes(JANUARY)) {
    if (months.every((m) => m < JULY)) return 'spring';
    if (months.every((m) => m > JULY)) return 'fall';
    return 'shoulder';
  }
  return monthRanges(months);
}

/**
 * Season name of each month (0-based index -> name), from the months that
 * share the same priced periods (`signatures[m]`): one group is `all_year`;
 * otherwise the group holding July but not January is `summer`, January but
 * not July `winter`, neither `spring` / `fall` (all months before / after
 * July) or `shoulder`, and a group holding both is named by its month ranges.
 * Two groups with the same name get their month ranges appended.
 */
export function seasonNames(signatures: string[]): string[] {
  const groups = new Map<string, number[]>();
  signatures.forEach((sig, m) => {
    const g = groups.get(sig);
    if (g) g.push(m);
    else groups.set(sig, [m]);
  });
  if (groups.size === 1) return signatures.map(() => 'all_year');
  const names = new Map<string, string>();
  const count = new Map<string, number>();
  for (const [sig, months] of groups) {
    const name = baseName(months);
    names.set(sig, name);
    count.set(name, (count.get(name) ?? 0) + 1);
  }
  for (const [sig, months] of groups) {
    const name = names.get(sig) as string;
    if ((count.get(name) ?? 0) > 1) names.set(sig, `${name} (${monthRanges(months)})`);
  }
  return signatures.map((sig) => names.get(sig) as string);
}
