import { z } from 'zod';
import { stateCode, zipCode } from '../properties/schemas';
import { PROPERTY_TYPES } from '../properties/states';
import { BENCHMARK_METRICS } from './benchmarks.calc';
import { HEALTH_STATUSES } from './health-score.calc';
import * as ex from './examples';
import { listPageQuery } from '../../platform/http/pagination';

const id = z.string().min(1).max(200);
const text = (max: number) => z.string().trim().min(1).max(max);

/** The longest cost trend, in months (the default is 12). */
export const MAX_TREND_MONTHS = 36;
/** Caps that keep every model quantity inside the bill engine's limits (a month under 1 TWh). */
export const MAX_DUE_DILIGENCE_UNITS = 100_000;
export const MAX_DUE_DILIGENCE_SQFT = 50_000_000;

export const costTrendQuery = z.object({
  months: z.coerce.number().int().min(1).max(MAX_TREND_MONTHS).default(12),
  portfolio_id: id.optional(),
});
export type CostTrendQuery = z.output<typeof costTrendQuery>;

export const healthQuery = listPageQuery.extend({
  portfolio_id: id.optional(),
  status: z.enum(HEALTH_STATUSES).optional(),
});
export type HealthQuery = z.output<typeof healthQuery>;

export const benchmarksQuery = listPageQuery.extend({
  portfolio_id: id.optional(),
  metric: z.enum(BENCHMARK_METRICS).default('cost_per_sqft'),
});
export type BenchmarksQuery = z.output<typeof benchmarksQuery>;

export const dueDiligenceBody = z
  .object({
    address: text(500),
    city: text(200),
    state: stateCode,
    zip_code: zipCode,
    unit_count: z.number().int().min(1).max(MAX_DUE_DILIGENCE_UNITS),
    sqft: z.number().int().min(1).max(MAX_DUE_DILIGENCE_SQFT).nullable().optional(),
    property_type: z.enum(PROPERTY_TYPES).default('residential'),
    annual_revenue: z.number().min(0).max(99_999_999_999).nullable().optional(),
  })
  .meta({
    example: ex.dueDiligenceRequest,
    // The service's rule (due-diligence.ts), stated for the document: a non-residential building needs its sqft.
    if: { required: ['property_type'], properties: { property_type: { enum: PROPERTY_TYPES.filter((t) => t !== 'residential') } } },
    then: { required: ['sqft'], properties: { sqft: { type: 'integer' } } },
  });
export type DueDiligenceInput = z.output<typeof dueDiligenceBody>;
