import { z } from 'zod';

export const createPortfolioBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
});
export type CreatePortfolioInput = z.output<typeof createPortfolioBody>;

export const portfolioIdParams = z.object({ id: z.string().min(1).max(200) });

export const portfolioResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  owner_id: z.string(),
  created_at: z.string(),
});

export const portfolioListItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  property_count: z.number().int(),
  created_at: z.string(),
});

export const portfolioSummary = z.object({
  property_count: z.number().int(),
  total_monthly_cost: z.number(),
  total_annual_cost: z.number(),
  avg_cost_per_kwh: z.number(),
  total_sqft: z.number().int(),
});

export const portfolioDetail = portfolioResponse.extend({ summary: portfolioSummary });
