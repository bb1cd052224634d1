import { readUrdbLines, normalizeBundle } from '../tariffs/bundled';
import { loadUtilityReference, REFERENCE_DIR } from '../utilities/reference';
import { bundledServingModel } from '../utilities/serving';
import { bundledLoadShapes } from '../pricing/load-shapes';
import type { MonthTotals } from './calendarise.calc';
import { rankBenchmarks, VALUE_SCALE } from './benchmarks.calc';
import { bundledAverageRates } from './average-rates';
import { createDueDiligence } from './due-diligence';
import { engineMonthlyBill } from '../properties/energy-cost';
import { DEDUCTIONS, healthScore, statusOf, type HealthInput } from './health-score.calc';
import { daysInMonth, monthIndexOfDate } from './months';
import { bundledResidentialUsage } from './residential-usage';
import { dueDiligenceBody } from './schemas';
import { meanCents, trendDirection } from './trend.calc';
import * as ex from './examples';

/**
 * The OpenAPI examples (examples.ts) recomputed with the rules: an example that drifts from
 * README.md's rules fails here.
 */

const cents = (dollars: number) => Math.round(dollars * 100);
const scaled = (v: number) => Math.round(v * VALUE_SCALE);

/** Each health issue's deduction, by the wording healthScore gives it. */
const ANOMALY = (change: string) =>
  new RegExp(
    `^Bill anomaly: .+, \\d{4}-\\d{2}-\\d{2} to \\d{4}-\\d{2}-\\d{2}, (cost|usage) (\\d+)% ${change} per day than (the same period a year earlier|the 6 months before)$`,
  );
const ISSUES: Array<[RegExp, keyof typeof DEDUCTIONS]> = [
  [/^No tariff set$/, 'noTariff'],
  [/^(.+: t|T)ariff expired on \d{4}-\d{2}-\d{2}: its estimate and savings rest on rates the utility no longer bills$/, 'expiredTariff'],
  [/^(.+: t|T)ariff \S+ has rates over 5 years old or of unknown date: they may be out of date$/, 'staleTariff'],
  [/^No monthly usage set$/, 'noUsage'],
  [/^No square footage set$/, 'noSqft'],
  [/^No bills in the last 12 months$/, 'noBills'],
  [/^Bills cover only \d of the last 12 months$/, 'fewBills'],
  [/^.+: \d+ estimated reads? in the last 12 months$/, 'estimatedReads'],
  [/^.+: \d+ days? between bills not billed in the last 12 months$/, 'billGaps'],
  [ANOMALY('more'), 'anomalyHigh'],
  [ANOMALY('more'), 'anomalyRaised'],
  [ANOMALY('less'), 'anomalyLow'],
  [/^Costs up \d+% on the same months a year earlier$/, 'risingCosts'],
  [/^Rate savings available: \$[\d,]+\.\d{2} a year$/, 'largeSavings'],
  [/^Rate savings available: \$[\d,]+\.\d{2} a year$/, 'savings'],
];

const asOf = monthIndexOfDate('2026-11');
const today = '2026-11-15';
const TARIFF = { id: '539f6a63ec4f024411ec8eb1', expiredOn: null, stale: false };
/** A property with its tariff, monthly usage and square footage set, seen on 2026-11-15. */
const COMPLETE = { asOf, today, tariff: TARIFF, hasUsage: true, hasSqft: true };
const m = (key: string) => monthIndexOfDate(key);
/** Whole months from `first`, `amounts` in cents. */
const wholeMonths = (first: string, amounts: number[]): MonthTotals[] =>
  amounts.map((c, i) => ({ month: m(first) + i, cents: c, usageMilli: 0, billedDays: daysInMonth(m(first) + i) }));
const bill = (periodStart: string, periodEnd: string, cents: number, isEstimated = false) => ({
  periodStart,
  periodEnd,
  cents,
  usageMilli: null,
  isEstimated,
});

/**
 * Inputs that produce each example property's issues, and the deductions the example claims.
 * Canal Warehouse: its water meter's latest period, 2026-09-12..2026-10-11, cost $1,470.00 against
 * $1,000.00 for the same days of 2025: 47 % more per day. Harbor Lofts: one estimated electric read,
 * and its last 12 complete months 8 % above the same months a year earlier; its $742.80 of savings are
 * under a tenth of its $15,010.50 estimate.
 */
const HEALTH: Record<string, { deductions: Array<keyof typeof DEDUCTIONS>; input: HealthInput }> = {
  'Canal Warehouse': {
    deductions: ['noTariff', 'noUsage', 'anomalyRaised'],
    input: {
      ...COMPLETE,
      tariff: null,
      hasUsage: false,
      savingsCents: null,
      estimateCents: null,
      months: wholeMonths('2025-12', Array(12).fill(40000)),
      meters: [
        {
          name: 'Water meter',
          isActive: true,
          tariff: null,
          bills: [
            bill('2025-09-12', '2025-10-11', 100000),
            bill('2026-08-12', '2026-09-11', 100000),
            bill('2026-09-12', '2026-10-11', 147000),
          ],
        },
      ],
    },
  },
  'Harbor Lofts': {
    deductions: ['estimatedReads', 'risingCosts', 'savings'],
    input: {
      ...COMPLETE,
      savingsCents: 74280,
      estimateCents: 1501050,
      months: wholeMonths(
        '2024-11',
        Array.from({ length: 24 }, (_, x) => (x < 12 ? 125000 : 135000)),
      ),
      meters: [{ name: 'Electric meter', isActive: true, tariff: null, bills: [bill('2026-09-01', '2026-09-30', 135000, true)] }],
    },
  },
  'Mill Street Offices': {
    deductions: [],
    input: {
      ...COMPLETE,
      savingsCents: null,
      estimateCents: 900000,
      months: wholeMonths('2025-12', Array(12).fill(75000)),
      meters: [],
    },
  },
};

describe('OpenAPI examples agree with the rules (README.md)', () => {
  describe('health', () => {
    it.each(ex.health.properties.map((p) => [p.name, p] as const))(
      '%s: score = 100 - its listed deductions, status by score',
      (name, p) => {
        const { deductions } = HEALTH[name]!;
        expect(p.issues).toHaveLength(deductions.length);
        deductions.forEach((key, i) => {
          const pattern = ISSUES.find(([, k]) => k === key)![0];
          expect(p.issues[i]).toMatch(pattern);
        });
        const score = 100 - deductions.reduce((s, key) => s + DEDUCTIONS[key], 0);
        expect(p.score).toBe(score);
        expect(p.status).toBe(statusOf(score));
      },
    );

    it.each(ex.health.properties.map((p) => [p.name, p] as const))('%s: healthScore gives exactly the listed answer', (name, p) => {
      expect(healthScore(HEALTH[name]!.input)).toEqual({ score: p.score, status: p.status, issues: p.issues });
    });

    it('the summary counts the listed statuses; worst first', () => {
      const { properties, summary } = ex.health;
      const count = (s: string) => properties.filter((p) => p.status === s).length;
      expect(summary).toEqual({ green: count('green'), yellow: count('yellow'), red: count('red'), total: properties.length });
      expect(properties.map((p) => p.score)).toEqual([...properties.map((p) => p.score)].sort((a, b) => a - b));
    });
  });

  it('benchmarks: percentiles, outliers, average, median and threshold by benchmarks.calc.ts', () => {
    const b = ex.benchmarks;
    const ranked = rankBenchmarks(b.rankings.map((r) => ({ item: r.property_id, value: scaled(r.value) })));
    expect(ranked.rankings.map((r) => r.item)).toEqual(b.rankings.map((r) => r.property_id));
    expect(b.rankings.map((r) => ({ value: r.value, percentile: r.percentile, outlier: r.outlier }))).toEqual(
      ranked.rankings.map((r) => ({ value: r.value / VALUE_SCALE, percentile: r.percentile, outlier: r.outlier })),
    );
    expect(b.portfolio_avg).toBe(ranked.average! / VALUE_SCALE);
    expect(b.portfolio_median).toBe(ranked.median! / VALUE_SCALE);
    // 0.6, 0.75, 1.1865: Q1 = 0.675, Q3 = 0.96825, threshold 0.96825 + 1.5 x 0.29325 = 1.408125
    expect(b.outlier_threshold).toBe(ranked.outlierThreshold! / VALUE_SCALE);
    expect(b.outlier_threshold).toBe(1.4081);
    expect(b.outlier_count).toBe(ranked.outlierCount);
    // the same properties as the health example
    expect(new Set(b.rankings.map((r) => r.name))).toEqual(new Set(ex.health.properties.map((p) => p.name)));
  });

  it('cost trend: direction and mean over the billed months', () => {
    const points = ex.costTrend.months
      .map((mo, x) => ({ x, y: cents(mo.total_cost), billed: mo.property_count > 0 }))
      .filter((p) => p.billed);
    expect(ex.costTrend.trend_direction).toBe(trendDirection(points));
    expect(ex.costTrend.avg_monthly_cost).toBe(meanCents(points) / 100);
  });

  it('global and portfolio analytics: the breakdowns add up', () => {
    const g = ex.globalAnalytics;
    for (const list of [g.cost_by_state, g.cost_by_property_type]) {
      expect(list.reduce((s, c) => s + cents(c.annual_cost), 0)).toBe(cents(g.total_annual_cost));
      expect(list.reduce((s, c) => s + c.property_count, 0)).toBe(g.total_properties);
    }
    for (const answer of [g, ex.dashboardStats]) {
      expect(answer.cost_by_utility.reduce((s, u) => s + cents(u.cost), 0)).toBe(cents(answer.total_annual_cost));
    }
    const electric = g.cost_by_utility.find((u) => u.utility_type === 'electric')!;
    expect(g.total_annual_kwh).toBe(electric.usage);
    // per kWh is electric dollars over electric kWh: $30,011.20 / 262,500 kWh = 0.11433
    expect(g.avg_cost_per_kwh).toBe(Math.round((cents(electric.cost) / electric.usage) * 100) / 10_000);
    expect(ex.dashboardStats.total_monthly_cost).toBe(Math.round(cents(ex.dashboardStats.total_annual_cost) / 12) / 100);
    for (const mo of ex.costTrend.months) {
      expect(mo.cost_by_utility.reduce((s, u) => s + cents(u.cost), 0)).toBe(cents(mo.total_cost));
      expect(mo.cost_by_utility.find((u) => u.utility_type === 'electric')!.usage).toBe(mo.total_kwh);
    }
    const p = ex.portfolioAnalytics;
    expect(p.cost_by_property.reduce((s, c) => s + cents(c.annual_cost), 0)).toBe(cents(p.total_annual_cost));
    expect(p.cost_by_utility.reduce((s, u) => s + cents(u.cost), 0)).toBe(cents(p.total_cost));
    expect(p.total_cost).toBe(p.total_annual_cost); // issue 47: the totals are the one annual cost, not the period's bills
    const pe = p.cost_by_utility.find((u) => u.utility_type === 'electric')!;
    expect(p.total_usage_kwh).toBe(pe.usage);
    expect(p.avg_rate_per_kwh).toBe(Math.round((cents(pe.cost) / pe.usage) * 100) / 10_000);
    expect(p.potential_savings.top_opportunity.annual_savings).toBe(p.potential_savings.total_annual);
  });

  it('due diligence: the model on the bundled data answers exactly the example (README worked example)', async () => {
    const ref = loadUtilityReference(REFERENCE_DIR);
    const serving = new Set(ref.zipPairs.filter((z) => z.zipCode === ex.dueDiligenceRequest.zip_code).map((z) => z.utilityId));
    const lines = readUrdbLines(REFERENCE_DIR).filter((l) => l.record && serving.has(String(l.record.eiaid)));
    const tariffs = normalizeBundle(lines, ref, new Date('2026-01-01T00:00:00Z')).tariffs;
    const today = '2026-11-15';
    const comparableRanges: Array<[string, string, number, number]> = [];
    const shapes = bundledLoadShapes();
    const dueDiligence = createDueDiligence({
      repo: {
        comparableCount: async (state, type, lo, hi) => {
          comparableRanges.push([state, type, lo, hi]);
          return ex.dueDiligenceResponse.comparable_properties;
        },
      },
      comparableCountBySqft: async () => {
        throw new Error('a residential building is compared by unit_count');
      },
      now: () => new Date(`${today}T12:00:00Z`),
      // as GET /utilities/by-zip orders them (utilities/serving.ts)
      servingUtilities: async (zip, state) => {
        const order = bundledServingModel().order(
          zip,
          state,
          [...serving].map((id) => {
            const u = ref.utilities.get(id)!;
            return { id, name: u.name, type: u.type, state: u.state, customersServed: u.customersServed };
          }),
        );
        return {
          county: order.county,
          utilities: order.ranked.map((u) => ({ ...u, estimatedCustomersInCounty: u.estimatedCustomersInCounty })),
        };
      },
      // as the catalog: every tariff of the utility in the sector and state, current and expired
      utilityTariffs: async (id, sector, state) => tariffs.filter((t) => t.utilityId === id && t.sector === sector && t.state === state),
      monthlyBill: engineMonthlyBill(shapes),
      loadShapes: () => shapes,
      residentialUsage: bundledResidentialUsage,
      averageRates: bundledAverageRates,
    });
    // the example request is a valid body, as the route parses it
    const answer = await dueDiligence(dueDiligenceBody.parse(ex.dueDiligenceRequest));
    expect(answer).toEqual(ex.dueDiligenceResponse);
    expect(comparableRanges).toEqual([['NM', 'residential', 12, 36]]);
  });
});
