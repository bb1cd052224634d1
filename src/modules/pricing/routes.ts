import type { ApiRouter } from '../../platform/http/router';
import type { PricingService } from './service';
import { billResponse, calculateBody, compareBody, compareResponse } from './schemas';
import * as ex from './examples';

const CALCULATE_DESCRIPTION = [
  'Prices one month of a tariff for the given usage, itemised. Each line item is quantity x rate rounded to the cent;',
  'total_cost = energy + demand + fixed + riders (a minimum-charge top-up is a fixed line item); taxes_estimate is',
  'total_cost x tax_rate_percent / 100 (0 without it), reported beside the total. Without usage_profile a time-of-use',
  "tariff's usage is split with the sector's typical load shape over the tariff's own schedule (2017 calendar); the",
  'shares are listed in `assumptions`. An energy tier bounded per kW of demand (URDB "kWh/kW", hours use) or per day',
  'names its band as published and as converted for this bill ("first 180 kWh per kW x 800 kW = 144000 kWh"). A demand,',
  "customer or minimum charge the tariff's description names but its rates lack is named in `assumptions`: the bill leaves it out.",
  "With `intervals` (a meter's 15-, 30- or 60-minute kWh) each interval is priced in the tariff's period by its local clock time,",
  'and demand is the largest average kW over the tariff\'s demand window: no load shape is assumed (pricing README "Interval data").',
].join(' ');

/** POST /calculate and POST /calculate/compare: no authentication needed; a token or key counts against its quota. */
export function registerPricingRoutes(api: ApiRouter, pricing: PricingService): void {
  api.post(
    '/calculate',
    {
      summary: 'Calculate a bill for one tariff',
      description: CALCULATE_DESCRIPTION,
      tags: ['Bill calculation'],
      auth: 'optional',
      body: calculateBody,
      response: billResponse,
      errors: {
        404: 'Tariff not found',
        422: 'demand_kw required for demand tariffs; month must be between 1 and 12; usage_profile does not fit; intervals that are not valid or disagree with usage_kwh or demand_kw',
      },
    },
    ({ body, req }) => pricing.calculate(body, req.user?.id ?? null),
  );

  api.post(
    '/calculate/compare',
    {
      summary: 'Compare 2 to 10 tariffs for the same usage',
      description:
        'Bills every tariff for the same month and usage and ranks them by total_cost, cheapest first (equal totals keep the request order).',
      tags: ['Bill calculation'],
      auth: 'optional',
      body: compareBody.meta({ example: ex.compareRequest }),
      response: compareResponse.meta({ example: ex.compareAnswer }),
      errors: {
        404: 'Tariff not found: <tariff_id>',
        422: 'tariff_ids must contain at least 2 items; tariff_ids must contain at most 10 items',
      },
    },
    ({ body, req }) => pricing.compare(body, req.user?.id ?? null),
  );
}
