/** The analytics answers' schemas: dashboard, cost trend, global and portfolio analytics, health, benchmarks, due diligence. */
import { z } from 'zod';
import { BENCHMARK_METRICS } from './benchmarks.calc';
import { HEALTH_STATUSES } from './health-score.calc';
import { TREND_DIRECTIONS } from './trend.calc';
import * as ex from './examples';
import { utilityAnnualCost, utilityCost } from '../meters/schemas';
import { recoveryItem } from '../audit/disputes/schemas';
import { listPageFields } from '../../platform/http/pagination';
import { benchmarkEmissions, emissionsStats } from './schemas.emissions';

const money = z.number();
const ratio = z.number().nullable();

export const dashboardStats = z
  .object({
    total_properties: z.number().int(),
    total_portfolios: z.number().int(),
    total_sqft: z.number().int(),
    total_monthly_cost: money.meta({ description: 'total_annual_cost / 12' }),
    total_annual_cost: money.meta({ description: 'the properties\' one annual cost (README "One annual cost"), summed' }),
    avg_cost_per_sqft: ratio.meta({ description: 'annual cost / sqft over properties with both, 4 decimals; null when none' }),
    avg_cost_per_kwh: ratio.meta({
      description: 'electric annual cost / electric annual kWh over properties with both, 4 decimals; null when none',
    }),
    properties_with_savings: z.number().int(),
    total_potential_savings: money,
    alerts_unread: z.number().int(),
    bills_this_month: z.number().int(),
    cost_by_utility: z.array(utilityAnnualCost).meta({ description: 'total_annual_cost by utility type' }),
    ...emissionsStats,
    audit_findings_open: z.number().int().meta({ description: 'open bill-audit findings (GET /pm/audit/findings?status=open)' }),
    audit_amount_at_issue: money.meta({
      description:
        "dollars at issue in the open findings: per bill the largest of its findings' amounts by size (over- and under-billing alike), summed",
    }),
    audit_amount_claimed: money.meta({ description: 'dollars claimed from utilities in disputes of audit findings, all of them' }),
    audit_amount_recovered: money.meta({ description: 'dollars the utilities credited on those claims' }),
    audit_amount_written_off: money.meta({
      description: 'dollars of closed claims not credited (denied claims, and what a credit left of its claim)',
    }),
    audit_recovery: z.array(recoveryItem).meta({
      description:
        'per property and year the claims were filed, newest year first: claimed = recovered + written_off + pending (GET /pm/audit/recovery/export.csv)',
    }),
  })
  .meta({ example: ex.dashboardStats });

export const costTrend = z
  .object({
    months: z.array(
      z.object({
        month: z.string(),
        total_cost: money,
        total_kwh: z.number().meta({ description: 'electric kWh' }),
        property_count: z.number().int(),
        cost_by_utility: z.array(utilityCost).meta({ description: 'total_cost by utility type (the types billed in the month)' }),
      }),
    ),
    trend_direction: z.enum(TREND_DIRECTIONS),
    avg_monthly_cost: money,
  })
  .meta({ example: ex.costTrend });

const costGroup = { annual_cost: money, property_count: z.number().int() };

export const globalAnalytics = z
  .object({
    total_properties: z.number().int(),
    total_portfolios: z.number().int(),
    total_annual_cost: money,
    total_annual_kwh: z.number().meta({ description: 'electric kWh of the annual costs' }),
    avg_cost_per_kwh: ratio.meta({ description: 'electric annual cost / electric annual kWh, 4 decimals' }),
    avg_cost_per_sqft: ratio,
    cost_by_state: z.array(z.object({ state: z.string(), ...costGroup })),
    cost_by_property_type: z.array(z.object({ type: z.string(), ...costGroup })),
    total_potential_savings: money,
    properties_with_savings: z.number().int(),
    cost_by_utility: z.array(utilityAnnualCost).meta({ description: 'total_annual_cost by utility type' }),
  })
  .meta({ example: ex.globalAnalytics });

export const portfolioAnalytics = z
  .object({
    portfolio_id: z.string(),
    period: z.string().meta({ description: 'first/last day of cost_by_month: the 12 months ending with the current UTC month' }),
    total_cost: money.meta({
      description: 'the properties\' one annual cost (README "One annual cost"), every utility type: total_annual_cost',
    }),
    total_usage_kwh: z.number().meta({ description: 'electric kWh a year of the same figures' }),
    avg_rate_per_kwh: z.number().meta({
      description: 'electric annual cost / electric annual kWh of the properties whose electric figure has kWh, 4 decimals; 0 without kWh',
    }),
    cost_by_utility: z.array(utilityAnnualCost).meta({ description: 'total_cost by utility type' }),
    cost_by_month: z
      .array(z.object({ month: z.string(), cost: money, usage_kwh: z.number() }))
      .meta({ description: 'actual calendarised cost and electric kWh billed in each month of the period' }),
    total_annual_cost: money.meta({ description: 'the properties\' one annual cost (README "One annual cost"), summed' }),
    cost_by_property: z.array(
      z.object({
        property_id: z.string(),
        name: z.string(),
        annual_cost: money.nullable().meta({ description: 'the one annual cost; null without one' }),
        basis: z.enum(['actual', 'estimate']).nullable(),
      }),
    ),
    potential_savings: z.object({
      total_annual: money,
      properties_with_savings: z.number().int(),
      top_opportunity: z
        .object({ property_id: z.string(), current_tariff: z.string().nullable(), recommended_tariff: z.string(), annual_savings: money })
        .nullable(),
    }),
  })
  .meta({ example: ex.portfolioAnalytics });

export const healthResponse = z
  .object({
    summary: z.object({ green: z.number().int(), yellow: z.number().int(), red: z.number().int(), total: z.number().int() }),
    properties: z
      .array(
        z.object({
          property_id: z.string(),
          name: z.string(),
          status: z.enum(HEALTH_STATUSES),
          score: z.number().int(),
          issues: z.array(z.string()),
        }),
      )
      .meta({ description: 'page `page` of the properties (worst score first)' }),
    ...listPageFields,
  })
  .meta({ example: ex.health });

export const benchmarksResponse = z
  .object({
    metric: z.enum(BENCHMARK_METRICS),
    emissions_year: z.number().int().meta({
      description:
        "the calendar year of each property's tco2e and kg_co2e_per_sqft (and of the kg_co2e_per_sqft metric): the latest complete one",
    }),
    portfolio_avg: ratio,
    portfolio_median: ratio,
    rankings: z.array(
      z.object({
        property_id: z.string(),
        name: z.string(),
        value: z.number(),
        percentile: z.number().int(),
        outlier: z.boolean(),
        basis: z.enum(['actual', 'estimate']),
        ...benchmarkEmissions,
      }),
    ),
    outlier_threshold: ratio,
    outlier_count: z.number().int(),
    ...listPageFields,
    partial_coverage: z
      .array(
        z.object({
          property_id: z.string(),
          name: z.string(),
          value: z.number(),
          basis: z.enum(['actual', 'estimate']),
          ...benchmarkEmissions,
          meters: z
            .array(
              z.object({ meter_id: z.string(), name: z.string(), utility_type: z.string(), covers: z.enum(['common_area', 'tenant']) }),
            )
            .meta({
              description:
                "the meters behind the figure that cover part of the building (the metric's utility types, billed in its 12 months)",
            }),
        }),
      )
      .meta({
        description:
          'properties with a figure of only part of the building (a common-area or tenant meter behind it): listed, ' +
          'not ranked, and left out of the average, median, percentiles and outliers',
      }),
  })
  .meta({ example: ex.benchmarks });

export const dueDiligenceResponse = z
  .object({
    property_summary: z.object({
      address: z.string(),
      city: z.string(),
      state: z.string(),
      zip_code: z.string(),
      unit_count: z.number().int(),
      sqft: z.number().int().nullable(),
    }),
    serving_utility: z
      .object({ id: z.number().int(), name: z.string() })
      .describe('The utility priced: the primary utility of zip_code (the first of GET /utilities/by-zip/{zip_code}), never another one.'),
    utility_choice: z
      .object({
        reason: z
          .string()
          .describe(
            'Why this utility, in words: the only one serving the ZIP code, or the one with the most estimated retail customers in its ' +
              'county (the figures of every utility serving it), and how it is priced (its tariffs, its latest known revisions, or an ' +
              "average rate, naming any data not its own: its state's or the nation's average, the Texas retail providers' average).",
          ),
        county: z.string().nullable().describe("The ZIP code's county (GeoNames) the estimate is for; null when unknown."),
        estimated_customers_in_county: z
          .number()
          .int()
          .nullable()
          .describe(
            "The priced utility's estimated retail customers in the county (GET /utilities/by-zip's estimated_customers_in_county).",
          ),
        other_utilities: z
          .array(
            z.object({
              id: z.number().int(),
              name: z.string(),
              estimated_customers_in_county: z.number().int().nullable(),
            }),
          )
          .describe('The other utilities serving the ZIP code, in order; none of them is priced.'),
      })
      .describe('Which utility is priced and why.'),
    catalog_current: z
      .boolean()
      .describe(
        'true when the catalog has a current tariff of the serving utility in the sector and state; false when it has none: then ' +
          'the latest known revision of each of its schedules is priced (or, with none eligible, its average rate).',
      ),
    latest_tariff_end_date: z
      .string()
      .nullable()
      .describe(
        "With catalog_current false: the latest expiration date among the utility's tariffs of the sector in the state (YYYY-MM-DD); " +
          'null when catalog_current is true or the catalog has no tariff of it.',
      ),
    estimated_costs: z.object({
      annual_energy_cost: money,
      monthly_energy_cost: money,
      cost_per_unit: money,
      cost_per_sqft: ratio,
    }),
    comparable_properties: z
      .number()
      .int()
      .describe(
        'Properties of any owner in the same state and property_type: residential ones with unit_count within +-50 % ' +
          '([ceil(u / 2), floor(3u / 2)]), commercial, industrial and mixed-use ones with sqft within +-50 % ([ceil(s / 2), floor(3s / 2)]).',
      ),
    available_tariffs: z
      .number()
      .int()
      .describe(
        'Eligible tariffs of the serving utility the estimate is priced over (current, or its latest known revisions when catalog_current ' +
          'is false; of the sector, general purpose, secondary or unstated voltage, applicability admitting the building, of the ' +
          "basis's service type); 0 on an average_rate basis.",
      ),
    best_tariff: z
      .object({ name: z.string(), estimated_annual_cost: money })
      .describe(
        'The cheapest priced tariff; on an average_rate basis (no tariff priced) the average rate, named as such ' +
          '("No tariff priced: <utility>\'s average <sector> rate, $<rate>/kWh (<source>, <year>)") with the estimate\'s annual cost.',
      ),
    noi_impact: z.object({ annual_revenue: z.number().nullable(), energy_pct_of_revenue: ratio, estimated_noi_impact: money }),
    basis: z
      .object({
        kind: z
          .enum(['tariffs', 'average_rate'])
          .describe(
            "tariffs: the serving utility's eligible tariffs priced month by month by the bill engine (the median for estimated_costs); " +
              "average_rate: annual kWh x the utility's average price per kWh for the sector, where it has no eligible tariff.",
          ),
        source: z.string().describe('The data the price comes from: the tariff database, or the table the average rate is from.'),
        year: z
          .number()
          .int()
          .nullable()
          .describe(
            "tariffs: the year the median tariff took effect (null when unpublished); average_rate: the table's data year or edition.",
          ),
        service_type: z
          .enum(['bundled', 'delivery_only'])
          .nullable()
          .describe(
            'tariffs: the service type of the priced tariffs (bundled preferred; delivery_only ones are priced with `supply`); null for average_rate.',
          ),
        rate_per_kwh: z.number().nullable().describe('average_rate: the $/kWh applied (6 decimals); null for tariffs.'),
        supply: z
          .object({ rate_per_kwh: z.number(), source: z.string(), year: z.number().int() })
          .nullable()
          .describe(
            "delivery_only tariffs: the supply price added to every month's kWh, the state's EIA-861 energy-only (part B) revenue / sales " +
              "for the sector (a retail supplier's average price); null otherwise.",
          ),
      })
      .describe('What the estimate rests on.'),
    assumptions: z
      .array(z.string())
      .describe(
        'In words: the consumption rule and load shape used, the tariffs left out and why, the basis and why, the supply price and its ' +
          'source, and the data age of the median and cheapest tariffs (expired, effective date unknown or more than 5 years old).',
      ),
  })
  .meta({ example: ex.dueDiligenceResponse });
