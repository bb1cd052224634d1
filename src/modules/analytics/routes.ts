import type { RequestHandler, Response } from 'express';
import { AppError, unauthorized } from '../../platform/http/errors';
import { callerId, type Tier } from '../../platform/http/auth';
import type { ApiRouter } from '../../platform/http/router';
import { onOwned } from '../../platform/http/owned-routes';
import { portfolioIdParams } from '../portfolios/schemas';
import { benchmarksQuery, costTrendQuery, dueDiligenceBody, healthQuery } from './schemas';
import {
  benchmarksResponse,
  costTrend,
  dashboardStats,
  dueDiligenceResponse,
  globalAnalytics,
  healthResponse,
  portfolioAnalytics,
} from './schemas.response';
import type { AnalyticsService, OnRecompute } from './service';

const PAID_TIERS: ReadonlySet<Tier> = new Set(['pro', 'enterprise']);

/** 403 below the Pro tier, with an upgrade prompt naming it. */
function requirePro(detail: string): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) return next(unauthorized());
    if (PAID_TIERS.has(req.user.tier)) return next();
    next(new AppError(403, detail));
  };
}

export const BENCHMARKS_UPGRADE = 'Benchmarks require the Pro or Enterprise tier: upgrade your plan';
export const DUE_DILIGENCE_UPGRADE = 'Due diligence requires the Pro or Enterprise tier: upgrade your plan';

/**
 * A read that had to bring the precomputed data up to date says so in a standard Server-Timing
 * header (shown by browser dev tools; the bench reads it): `analytics-recompute;dur=<ms>;desc="<properties>"`.
 */
function serverTiming(res: Response): OnRecompute {
  return (t) => res.setHeader('Server-Timing', `analytics-recompute;dur=${t.ms};desc="${t.properties}"`);
}

const tags = ['Analytics'];
const ONE_ANNUAL_COST =
  "a property's annual cost, per utility type, is its actual cost of the last 12 complete months when at " +
  'least 10 are billed (x 12 / billed months), else the bill-engine estimate (electric) or nothing';
const FRESHNESS =
  'Reflects every write that finished before the request (a precomputed answer older than the ' + "owner's data is recomputed first).";

/** A signed-in owner's read whose query may narrow it to one of their portfolios (portfolio_id): someone else's is a 404. */
const portfolioFiltered = { auth: 'required', errors: { 404: 'Portfolio not found' } } as const;

export function registerAnalyticsRoutes(api: ApiRouter, analytics: AnalyticsService): void {
  api.get(
    '/pm/dashboard/stats',
    {
      summary: "Dashboard statistics of the caller's properties",
      description:
        `The properties' one annual cost (${ONE_ANNUAL_COST}), summed, with cost_by_utility; avg_cost_per_kwh is ` +
        "electric dollars over electric kWh. Savings from each property's latest rate analysis; bills_this_month counts bills " +
        'whose period overlaps the current UTC month. Beside cost, the emissions of the latest complete calendar year ' +
        '(emissions_year): location-based t CO2e summed and kg CO2e per sqft (as GET /pm/emissions), and the properties with a ' +
        'projected building-performance penalty above zero (New York City Local Law 97), with their penalties summed. ' +
        FRESHNESS,
      tags,
      auth: 'required',
      response: dashboardStats,
    },
    ({ req, res }) => analytics.stats(callerId(req), serverTiming(res)),
  );

  api.get(
    '/pm/dashboard/cost-trend',
    {
      summary: 'Actual billed cost per calendar month',
      description:
        'The `months` calendar months ending with the current UTC month, every month listed, each with ' +
        'cost_by_utility; total_kwh is electric. Bills are spread over months by days (calendarised). trend_direction and avg_monthly_cost use the complete months only (not the ' +
        'current one). With 24 complete months in the window, all billed: the last 12 against the same months a year ' +
        'earlier, each over the properties billed in both, above +5 % increasing, below -5 % decreasing, else stable. ' +
        'Otherwise the least-squares slope of monthly cost over the complete billed months, counting the properties billed ' +
        'in every one of them, relative to its mean: above +2 %/month increasing, below -2 % decreasing, else stable; ' +
        'fewer than 3 such months insufficient_data. ' +
        FRESHNESS,
      tags,
      ...portfolioFiltered,
      query: costTrendQuery,
      response: costTrend,
    },
    ({ query, req, res }) => analytics.costTrend(callerId(req), query, serverTiming(res)),
  );

  api.get(
    '/pm/dashboard/global-analytics',
    {
      summary: 'Annual cost of every property, by state, property type and utility type',
      description:
        `${ONE_ANNUAL_COST}; properties without one count in property_count only. Per kWh is electric over ` + 'electric. ' + FRESHNESS,
      tags,
      auth: 'required',
      response: globalAnalytics,
    },
    ({ req, res }) => analytics.globalAnalytics(callerId(req), serverTiming(res)),
  );

  onOwned(
    api,
    'get',
    '/pm/portfolios/:id/analytics',
    {
      summary: 'Portfolio analytics: actual cost by month and property, savings on offer',
      description:
        'Actual calendarised cost over the 12 months ending with the current UTC month, by month and utility ' +
        `type (avg_rate_per_kwh: electric over electric); cost_by_property: each property's one annual cost (${ONE_ANNUAL_COST}), ` +
        "largest first; potential savings from each property's latest rate analysis. " +
        FRESHNESS,
      tags: ['Portfolios'],
      params: portfolioIdParams,
      response: portfolioAnalytics,
      notFound: 'Portfolio not found',
    },
    (ownerId, id, { res }) => analytics.portfolioAnalytics(ownerId, id, serverTiming(res)),
  );

  api.get(
    '/pm/properties/health',
    {
      summary: 'Health score of every property',
      description:
        'Score 0-100 (green >= 80, yellow 50-79, red < 50) from data completeness (tariff, usage, sqft, bill ' +
        'coverage, estimated reads, gaps between bills, expired or stale tariffs), bill anomalies per meter (its latest ' +
        'complete period per day against the same period a year earlier, else the 6 months before), costs up on the same ' +
        'months a year earlier, and savings opportunities; the deductions are listed in `issues`, naming the meter. summary counts the portfolio (or ' +
        'all properties); `status` filters the list. Worst score first. ' +
        FRESHNESS,
      tags: ['Properties'],
      ...portfolioFiltered,
      query: healthQuery,
      response: healthResponse,
    },
    ({ query, req, res }) => analytics.health(callerId(req), query, serverTiming(res)),
  );

  api.get(
    '/pm/analytics/benchmarks',
    {
      summary: 'Rank properties by a cost metric (Pro and Enterprise)',
      description:
        `${ONE_ANNUAL_COST}; basis actual when every figure is. cost_per_kwh and kwh_per_sqft use electric only; ` +
        'site_eui is kBtu of site energy (ENERGY STAR conversion factors) per sqft a year; kg_co2e_per_sqft is the location-based ' +
        'emissions of the latest complete calendar year (emissions_year, as GET /pm/properties/{id}/emissions) per sqft, and every ' +
        "property listed carries its tco2e and kg_co2e_per_sqft whatever the metric. Properties without the metric's " +
        'inputs are left out; those whose figure rests on a meter of part of the building (covers common_area or tenant) are ' +
        'listed in partial_coverage, not ranked. percentile = round(100 x (values below + ' +
        'half the other equal values) / (n - 1)), 50 for one property; outlier_threshold = Q3 + 1.5 x IQR (linear ' +
        'interpolation). Rankings lowest value first. ' +
        FRESHNESS,
      tags,
      auth: 'required',
      query: benchmarksQuery,
      response: benchmarksResponse,
      errors: { 403: 'Benchmarks require the Pro or Enterprise tier (upgrade prompt)', 404: 'Portfolio not found' },
      middleware: [requirePro(BENCHMARKS_UPGRADE)],
    },
    ({ query, req, res }) => analytics.benchmarks(callerId(req), query, serverTiming(res)),
  );

  api.post(
    '/pm/due-diligence',
    {
      summary: 'Energy cost model of a property to acquire (Pro and Enterprise)',
      description:
        'Serving utility: the primary utility of zip_code (the first of GET /utilities/by-zip: the most estimated ' +
        "retail customers in the ZIP code's county), never another one; utility_choice says why and names the others. " +
        "Consumption: residential = unit_count x the utility's EIA-861 average residential kWh per customer (each unit billed); " +
        'other types = sqft x 14.6 kWh/sqft (EIA CBECS). basis tariffs: priced by the bill engine with the sector load shape on ' +
        "the utility's eligible bundled tariffs (delivery-only ones with a supply price): its current tariffs, or when it has " +
        'none (catalog_current false, latest_tariff_end_date) the latest known revision of each of its schedules; ' +
        "estimated_costs on the median tariff, best_tariff the cheapest; basis average_rate: the utility's average price per " +
        'kWh (EIA-861 2018, OpenEI ZIP tables) when none of its tariffs is eligible, and best_tariff names that rate. ' +
        'assumptions says what the answer rests on.',
      tags,
      auth: 'required',
      body: dueDiligenceBody,
      response: dueDiligenceResponse,
      errors: {
        403: 'Due diligence requires the Pro or Enterprise tier (upgrade prompt)',
        404: 'No utilities found for ZIP code',
        422: 'Validation error (field required, Invalid state code, Invalid ZIP code format, sqft required for commercial properties, ...)',
      },
      middleware: [requirePro(DUE_DILIGENCE_UPGRADE)],
    },
    ({ body, req }) => analytics.dueDiligence(body, callerId(req)),
  );
}
