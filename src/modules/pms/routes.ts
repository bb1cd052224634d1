import type { ApiRouter } from '../../platform/http/router';
import { notFound } from '../../platform/http/errors';
import { pageQuery } from '../../platform/http/pagination';
import { callerId } from '../../platform/http/auth';
import { propertyIdParams } from '../properties/schemas';
import { yieldToLiteralPaths } from '../properties/routes';
import { linkBody, linkResponse, unitsPage } from './schemas';
import type { PmsService } from './service';

const tags = ['PMS'];

export function registerPmsRoutes(api: ApiRouter, pms: PmsService): void {
  api.put('/pm/properties/:id/pms', {
    summary: "Link a property to its record in the PMS and import its units",
    description: 'The first account that links a property to a `connection_id` holds that connection; the same account '
      + 'may link several properties on it. Linking queues an import of the property\'s units from the PMS data '
      + 'provider (see `last_synced_at`); relinking to another PMS property drops the units imported from the old one.',
    tags, auth: 'required', params: propertyIdParams, body: linkBody, response: linkResponse,
    errors: { 404: 'Property not found', 409: 'The connection belongs to another account, or the PMS property is linked to another property' },
    middleware: [yieldToLiteralPaths],
  }, ({ params, body, req }) => pms.link(callerId(req), params.id, body));

  api.get('/pm/properties/:id/pms', {
    summary: "A property's PMS link and the state of its last import",
    tags, auth: 'required', params: propertyIdParams, response: linkResponse,
    errors: { 404: 'Property not found, or PMS link not found' }, middleware: [yieldToLiteralPaths],
  }, async ({ params, req }) => {
    const link = await pms.getLink(callerId(req), params.id);
    if (!link) throw notFound('PMS link not found');
    return link;
  });

  api.delete('/pm/properties/:id/pms', {
    summary: 'Unlink a property from the PMS (its imported units are removed)',
    tags, auth: 'required', params: propertyIdParams, status: 204, errors: { 404: 'Property not found' },
    middleware: [yieldToLiteralPaths],
  }, ({ params, req }) => pms.unlink(callerId(req), params.id));

  api.get('/pm/properties/:id/units', {
    summary: "A linked property's units, as the PMS reports them",
    description: 'Ordered by unit_number. Kept current by the PMS webhooks and imports.',
    tags, auth: 'required', params: propertyIdParams, query: pageQuery, response: unitsPage,
    errors: { 404: 'Property not found' }, middleware: [yieldToLiteralPaths],
  }, ({ params, query, req }) => pms.listUnits(callerId(req), params.id, query));
}
