import type { Schedule12x24, Sector } from '../../tariffs/tariff.model';
import { WEEKDAY_DAYS, WEEKEND_DAYS } from './calendar';
import type { LoadShape, LoadShapeSet } from './types';

/** The load shape a tariff's usage is split with: its sector's typical shape, or uniform where the data has none. */
export interface ShapeChoice {
  shape: LoadShape | null;
  /** How the assumption names it. */
  description: string;
}

export function selectShape(shapes: LoadShapeSet, sector: Sector): ShapeChoice {
  const id = shapes.defaults[sector];
  const shape = id ? shapes.shapes[id] : undefined;
  if (shape) return { shape, description: `the typical ${sector} load shape ("${id}" in data/reference/load-shapes.json)` };
  return {
    shape: null,
    description: `a uniform load shape (every hour of the month alike), because the bundled data has no typical ${sector} load shape`,
  };
}

/**
 * Share of the month's kWh in each of `periods`, laying the shape over the
 * tariff's own weekday and weekend schedules with the reference calendar's day
 * counts (LOAD-SHAPES.md: kWh in a weekday hour = E * weekday_days * weekday[m][h] / D).
 * `hours` is the same with every hour alike (the uniform shape).
 */
export function monthShares(
  choice: ShapeChoice,
  weekday: Schedule12x24,
  weekend: Schedule12x24,
  m: number,
  periods: number[],
): { shape: number[]; hours: number[] } {
  const nwd = WEEKDAY_DAYS[m];
  const nwe = WEEKEND_DAYS[m];
  const shape = periods.map(() => 0);
  const hours = periods.map(() => 0);
  for (let h = 0; h < 24; h++) {
    const pd = periods.indexOf(weekday[m][h]);
    const pe = periods.indexOf(weekend[m][h]);
    hours[pd] += nwd;
    hours[pe] += nwe;
    if (choice.shape) {
      shape[pd] += nwd * choice.shape.weekday[m][h];
      shape[pe] += nwe * choice.shape.weekend[m][h];
    }
  }
  const normalise = (w: number[]) => {
    const total = w.reduce((a, b) => a + b, 0);
    return total > 0 ? w.map((v) => v / total) : w;
  };
  const hourShares = normalise(hours);
  const shapeTotal = shape.reduce((a, v) => a + v, 0);
  // A shape with no load at all in these hours (cannot happen with the bundled shapes) falls back to uniform.
  return { shape: choice.shape && shapeTotal > 0 ? normalise(shape) : hourShares, hours: hourShares };
}

/**
 * Splits `total` integer units over weights so that the parts add up to
 * `total` exactly (Sainte-Lague / Webster divisor method). It is house-monotone:
 * a larger total never gives any part less, so a bill never drops when usage
 * grows. Ties go to the lower index when adding and the higher when removing.
 * `out` receives the parts; weights must not all be 0 when total > 0.
 */
export function apportion(total: number, weights: ArrayLike<number>, out: number[]): void {
  const n = weights.length;
  let sumW = 0;
  for (let i = 0; i < n; i++) sumW += weights[i];
  if (!(sumW > 0)) {
    // No weight anywhere: equal parts (keeps the loops below bounded by n).
    apportion(total, new Array<number>(n).fill(1), out);
    return;
  }
  let assigned = 0;
  for (let i = 0; i < n; i++) {
    const q = Math.round((total * weights[i]) / sumW);
    out[i] = q;
    assigned += q;
  }
  while (assigned < total) {
    let best = -1;
    let bestPriority = -1;
    for (let i = 0; i < n; i++) {
      const w = weights[i];
      if (w <= 0) continue;
      const priority = w / (out[i] + 0.5);
      if (priority > bestPriority) {
        bestPriority = priority;
        best = i;
      }
    }
    out[best]++;
    assigned++;
  }
  while (assigned > total) {
    let best = -1;
    let bestPriority = Infinity;
    for (let i = 0; i < n; i++) {
      if (out[i] <= 0) continue;
      const priority = weights[i] / (out[i] - 0.5);
      if (priority <= bestPriority) {
        bestPriority = priority;
        best = i;
      }
    }
    out[best]--;
    assigned--;
  }
}
