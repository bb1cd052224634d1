import { z } from 'zod';

export const rateAnalysisResponse = z.object({
  property_id: z.string(),
  current_tariff: z
    .object({ id: z.string(), name: z.string(), estimated_monthly_cost: z.number() })
    .nullable()
    .meta({
      description: 'null when the property has no tariff_id, its tariff is no longer in the database, or it cannot be priced '
        + 'from the property (a demand tariff without monthly_demand_kw)',
    }),
  alternatives: z.array(
    z.object({
      tariff_id: z.string(),
      name: z.string(),
      estimated_monthly_cost: z.number(),
      monthly_savings: z.number().nullable(),
      annual_savings: z.number().nullable(),
      savings_percent: z.number().nullable(),
    }),
  ),
  excluded: z.array(z.object({ tariff_id: z.string(), name: z.string(), reason: z.string() })).meta({
    description: "tariffs of the compared utility left out: the property's usage or demand is outside the tariff's "
      + 'applicability, or the tariff cannot be priced from the property (a demand tariff without monthly_demand_kw). '
      + 'Never recommended.',
  }),
  recommendation: z.string(),
  analyzed_at: z.string(),
});
