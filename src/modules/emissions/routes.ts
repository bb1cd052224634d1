import type { ApiRouter } from '../../platform/http/router';
import { callerId } from '../../platform/http/auth';
import { propertyIdParams } from '../properties/schemas';
import { emissionsQuery, emissionsResponse } from './schemas';
import type { EmissionsService } from './service';

const tags = ['Emissions'];

export function registerEmissionsRoutes(api: ApiRouter, emissions: EmissionsService): void {
  api.get('/pm/properties/:id/emissions', {
    summary: "A property's greenhouse gas emissions for a calendar year, per month and per meter",
    description: 'Location-based, in metric tons CO2e, from the meters\' bills (calendarised by days). Electricity: the eGRID2022 '
      + 'total output rate (SRC2ERTA) of the property ZIP code\'s first Power Profiler subregion, no grid loss; natural gas: '
      + 'EPA\'s Emission Factors Hub. Steam, other fuels, water, sewer and trash meters are listed with the reason they are '
      + 'not counted. `factors` names each factor used, its source and year.',
    tags, auth: 'required', params: propertyIdParams, query: emissionsQuery, response: emissionsResponse,
    errors: { 404: 'Property not found', 422: 'Validation error (year)' },
  }, ({ params, query, req }) => emissions.propertyEmissions(callerId(req), params.id, query));
}
