import type { ApiRouter } from '../../platform/http/router';
import { onOwned } from '../../platform/http/owned-routes';
import { propertyIdParams } from '../properties/schemas';
import { rateAnalysisResponse } from './schemas';
import type { RateAnalysisService } from './service';

export function registerRateAnalysisRoutes(api: ApiRouter, rateAnalysis: RateAnalysisService): void {
  onOwned(
    api,
    'post',
    '/pm/properties/:id/analyze-rates',
    {
      summary: "Compare the property's tariff with the others its utility offers it",
      description:
        'A customer changes tariff, not distribution utility, so the analysis compares the current tariffs of ' +
        "one utility: the utility of the property's tariff_id; without a tariff_id, every utility serving its ZIP code. " +
        'Sectors: residential (and commercial too for a residential building of more than 4 units, whose house meter is ' +
        'billed on general-service rates), commercial, and commercial then industrial for mixed use and industrial. ' +
        "Only tariffs the property could move to are compared: for its ZIP code's state, of the current tariff's service " +
        'type, general purpose unless the current tariff serves the same special purpose, at no higher voltage (secondary ' +
        'when unknown), open to new customers, and whose demand and usage limits (published, else stated in the name) ' +
        'admit the property. Each is priced by the bill engine on monthly_usage_kwh (and monthly_demand_kw when set; ' +
        'supply_rate_per_kwh on delivery-only tariffs). The others, and demand tariffs when the property has no ' +
        'monthly_demand_kw, are listed in excluded with the reason and never recommended; assumptions gives the data age. ' +
        'estimated_monthly_cost is the average of the 12 monthly bills of a year, so seasonal rates count fairly. ' +
        'monthly_savings = current - alternative; annual_savings = 12 x monthly_savings; savings_percent = ' +
        'monthly_savings / current x 100 (1 decimal). Alternatives are cheapest first; the recommendation is the ' +
        'cheapest alternative when it saves money, else the current tariff. A property without a (priceable) tariff_id ' +
        'gets current_tariff null, null savings, and the cheapest tariff as recommendation. Each analysis is stored (the ' +
        'latest 10 per property are kept); the rate-analysis queue also re-runs it when tariff_id, monthly_usage_kwh or ' +
        'monthly_demand_kw change and after a tariff data re-import.',
      tags: ['Properties'],
      params: propertyIdParams,
      response: rateAnalysisResponse,
      errors: {
        400: 'Property has no usage data (and no electric bills), No tariffs available for this service area, or why no tariff can be recommended (nothing current, or every candidate needs review)',
      },
      notFound: 'Property not found',
    },
    (ownerId, id) => rateAnalysis.analyze(ownerId, id),
  );
}
