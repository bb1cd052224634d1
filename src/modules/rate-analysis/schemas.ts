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
    description: 'tariffs of the compared utility the property cannot move to, each with its reason: another state\'s, '
      + 'another service type (bundled / delivery only), a special purpose (lighting, standby, a rider, ...), a higher '
      + 'voltage, closed to new customers, demand or usage outside its applicability (published, or the kW limits its name '
      + 'states), or not priceable from the property (a demand tariff without monthly_demand_kw). Never recommended.',
  }),
  recommendation: z.string(),
  analyzed_at: z.string(),
  assumptions: z.array(z.string()).optional().meta({
    description: 'what the answer rests on that the property owner should know: the current and recommended tariffs\' data age '
      + '(expired, effective date unknown or more than 5 years old) and what their classification assumed',
  }),
});
