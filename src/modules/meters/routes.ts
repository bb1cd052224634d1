import type { ApiRouter } from '../../platform/http/router';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { callerId } from '../../platform/http/auth';
import { propertyIdParams } from '../properties/schemas';
import { createMeterBody, meterIdParams, meterResponse, updateMeterBody } from './schemas';
import * as ex from './examples';
import type { MeterService } from './service';

const tags = ['Meters'];

export function registerMeterRoutes(api: ApiRouter, meters: MeterService): void {
  api.post('/pm/properties/:id/meters', {
    summary: 'Add a meter to a property',
    description: 'A meter of a utility type (electric, gas, water, sewer, trash, steam, other) reading in one of its units. '
      + 'The first meter of a type on a property is its default: bills of that type sent without meter_id go to it '
      + '(one is created on first use when a bill arrives before any meter).',
    tags, auth: 'required', params: propertyIdParams, body: createMeterBody, status: 201, response: meterResponse,
    errors: { 404: 'Property not found', 422: 'Validation error (field required, a unit of another type, Tariff not found, a tariff of another state)' },
  }, ({ params, body, req }) => meters.create(callerId(req), params.id, body));

  api.get('/pm/properties/:id/meters', {
    summary: "List a property's meters, oldest first", tags, auth: 'required',
    params: propertyIdParams, query: pageQuery,
    response: pageSchema(meterResponse).meta({ example: { items: [ex.meter], total: 1, page: 1, per_page: 20, pages: 1 } }), errors: { 404: 'Property not found' },
  }, ({ params, query, req }) => meters.list(callerId(req), params.id, query));

  api.patch('/pm/meters/:id', {
    summary: "Update a meter's unit, name, numbers, tariff or is_active",
    description: 'utility_type cannot change. A new unit applies to bills recorded from then on; each bill keeps its own unit. '
      + 'null clears account_number, meter_number or tariff_id.',
    tags, auth: 'required', params: meterIdParams, body: updateMeterBody, response: meterResponse,
    errors: { 404: 'Meter not found', 422: 'Validation error (a unit of another type, utility_type changed, Tariff not found, a tariff of another state)' },
  }, ({ params, body, req }) => meters.update(callerId(req), params.id, body));
}
