import type { ApiRouter } from '../../platform/http/router';
import { callerId } from '../portfolios/caller';
import { propertyIdParams } from '../properties/schemas';
import { yieldToLiteralPaths } from '../properties/routes';
import { rateAnalysisResponse } from './schemas';
import type { RateAnalysisService } from './service';

export function registerRateAnalysisRoutes(api: ApiRouter, rateAnalysis: RateAnalysisService): void {
  api.post('/pm/properties/:id/analyze-rates', {
    summary: 'Compare the property\'s tariff with the others available at its ZIP code',
    description: 'Every current tariff for the property\'s ZIP code and sector is priced by the bill engine on '
      + 'monthly_usage_kwh (and monthly_demand_kw when set; demand tariffs are left out without it). '
      + 'estimated_monthly_cost is the average of the 12 monthly bills of a year, so seasonal rates count fairly. '
      + 'monthly_savings = current - alternative; annual_savings = 12 x monthly_savings; savings_percent = '
      + 'monthly_savings / current x 100 (1 decimal). Alternatives are cheapest first; the recommendation is the '
      + 'cheapest alternative when it saves money, else the current tariff. A property without a (priceable) tariff_id '
      + 'gets current_tariff null, null savings, and the cheapest tariff as recommendation. Each analysis is stored; '
      + 'the rate-analysis queue also re-runs it when tariff_id, monthly_usage_kwh or monthly_demand_kw change and after '
      + 'a tariff data re-import.',
    tags: ['Properties'], auth: 'required', params: propertyIdParams, response: rateAnalysisResponse,
    errors: { 400: 'Property has no usage data, or No tariffs available for this service area', 404: 'Property not found' },
    middleware: [yieldToLiteralPaths],
  }, ({ params, req }) => rateAnalysis.analyze(callerId(req), params.id));
}
