import { z } from 'zod';

const alternative = z.object({
  tariff_id: z.string(),
  name: z.string(),
  estimated_monthly_cost: z.number(),
  monthly_savings: z.number().nullable(),
  annual_savings: z.number().nullable(),
  savings_percent: z.number().nullable(),
});

export const rateAnalysisResponse = z
  .object({
    property_id: z.string(),
    current_tariff: z
      .object({ id: z.string(), name: z.string(), estimated_monthly_cost: z.number() })
      .nullable()
      .meta({
        description:
          'null when the property has no tariff_id, its tariff is no longer in the database, or it cannot be priced ' +
          'from the property (a demand tariff without monthly_demand_kw)',
      }),
    alternatives: z.array(alternative).meta({
      description:
        'tariffs the property is shown eligible for by the written rules (data/reference/README.md, "Who may take a tariff"): ' +
        'same utility and state, same sector and service type, a general-service rate by its own words, no restriction in its name or ' +
        'description, limits that admit the property, voltage no higher, open to new customers; cheapest first. Only these are recommended.',
    }),
    excluded: z.array(z.object({ tariff_id: z.string(), name: z.string(), reason: z.string() })).meta({
      description:
        "tariffs of the compared utility the property cannot move to, each with its reason: another state's, " +
        'another service type (bundled / delivery only), a special purpose (lighting, standby, a rider, ...), a higher ' +
        'voltage, closed to new customers, demand or usage outside its applicability (published, or the kW limits its name ' +
        'states), or not priceable from the property (a demand tariff without monthly_demand_kw). Never recommended.',
    }),
    needs_review: z.array(alternative.extend({ reason: z.string() })).meta({
      description:
        'tariffs priced beside the alternatives whose eligibility the evidence neither shows nor rules out (a condition the rules ' +
        'cannot read, a limit the property has no figure for, a record with no statement that it is a general rate, a revision that ' +
        'is no longer current), each with the reason to check. Never the recommendation, and never counted in savings, health or notifications.',
    }),
    basis: z
      .union([
        z.object({
          kind: z.literal('bills'),
          months: z.array(z.string()).meta({ description: 'the calendar months (YYYY-MM) the re-priced bills cover' }),
          bills_from_intervals: z
            .number()
            .int()
            .meta({
              description:
                "of the bills, those priced from their meter's interval readings (they cover every interval of the bill's period): " +
                'time of use and demand measured, not estimated; the others are priced from their usage and demand',
            }),
          meters: z.array(
            z.object({
              meter_id: z.string(),
              bills: z.number().int(),
              bills_from_intervals: z.number().int(),
              months: z.array(z.string()),
            }),
          ),
        }),
        z.object({ kind: z.literal('typed_usage') }),
      ])
      .meta({
        description:
          "`bills`: the last 12 months of the property's electric bills re-priced per meter and billing period on each tariff " +
          "(monthly costs are the average month of those bills); `typed_usage`: the property's monthly_usage_kwh (and monthly_demand_kw) priced " +
          'on a typical year',
      }),
    catalog_current: z.boolean().meta({
      description:
        'false when the compared utility has no current tariff in the catalog: then nothing current could be compared, ' +
        'the latest known revisions are listed in needs_review only, and latest_tariff_end_date says when the newest of them ended',
    }),
    latest_tariff_end_date: z.string().nullable(),
    recommendation: z.string(),
    analyzed_at: z.string(),
    assumptions: z
      .array(z.string())
      .optional()
      .meta({
        description:
          "what the answer rests on that the property owner should know: the current and recommended tariffs' data age " +
          '(expired, effective date unknown or more than 5 years old) and what their classification assumed',
      }),
  })
  .meta({
    // The rate-analysis README's worked example (test/pm/rate-analysis.test.ts): 20,000 kWh a month in Gladstone, MO on C1.
    example: {
      property_id: '0b7d5a52-8d8e-4d8c-9a4e-5b6c7d8e9f01',
      current_tariff: { id: '539f6a63ec4f024411ec8eb1', name: 'Rate schedule C1-Commercial Service 1PH', estimated_monthly_cost: 2447.54 },
      alternatives: [
        {
          tariff_id: '539fc30cec4f024c27d8b7ab',
          name: 'Rate Schedule SP1- Small Power 1PH( Over 15,000 kWh per Month)',
          estimated_monthly_cost: 2050.54,
          monthly_savings: 397,
          annual_savings: 4764,
          savings_percent: 16.2,
        },
      ],
      excluded: [
        {
          tariff_id: '539fb983ec4f024bc1dc23a9',
          name: 'Rate Schedule C3- Commercial 3PH Non-City',
          reason: 'three-phase service only: the property takes single-phase service (its current tariff says so)',
        },
      ],
      needs_review: [],
      basis: { kind: 'typed_usage' },
      catalog_current: true,
      latest_tariff_end_date: null,
      recommendation: '539fc30cec4f024c27d8b7ab',
      analyzed_at: '2026-11-28T13:00:00.000Z',
      assumptions: [
        "Rate schedule C1-Commercial Service 1PH: the tariff's rates took effect on 2011-08-01, more than 5 years ago: the utility's current rates may differ",
        "Rate Schedule SP1- Small Power 1PH( Over 15,000 kWh per Month): the tariff's rates took effect on 2011-08-01, more than 5 years ago: the utility's current rates may differ",
      ],
    },
  });
