import type { ApiRouter } from '../../platform/http/router';
import { pageSchema } from '../../platform/http/pagination';
import { callerId } from '../../platform/http/auth';
import { getPageOfOwnList, onOwned } from '../../platform/http/owned-routes';
import {
  createPropertyBody,
  propertyDetail,
  propertyIdParams,
  propertyListItem,
  propertyListQuery,
  propertyResponse,
  updatePropertyBody,
} from './schemas';
import type { PropertyService } from './service';
import * as ex from './examples';

const tags = ['Properties'];

export function registerPropertyRoutes(api: ApiRouter, properties: PropertyService): void {
  api.post(
    '/pm/properties',
    {
      summary: 'Create a property',
      tags,
      auth: 'required',
      body: createPropertyBody.meta({ example: ex.createPropertyRequest }),
      status: 201,
      response: propertyResponse.meta({ example: ex.property }),
      errors: {
        404: 'Portfolio not found',
        422: 'Validation error (field required, Invalid state code, Tariff not found, a tariff of another state, ...)',
      },
    },
    ({ body, req }) => properties.create(callerId(req), body),
  );

  getPageOfOwnList(
    api,
    '/pm/properties',
    {
      summary: "List the caller's properties",
      tags,
      query: propertyListQuery,
      description: 'Newest first. Filters: portfolio_id, state, city (case-insensitive), property_type.',
      response: pageSchema(propertyListItem).meta({ example: ex.propertyPage }),
    },
    properties.list,
  );

  onOwned(
    api,
    'get',
    '/pm/properties/:id',
    {
      summary: 'Property detail with the tariffs available at its ZIP code',
      description:
        "available_tariffs: current general-purpose tariffs, for the ZIP code's state, of the utilities serving " +
        'zip_code and of the utility of tariff_id, in the sectors of property_type (residential -> residential, and ' +
        'commercial too above 4 units; commercial -> commercial; mixed_use and industrial -> commercial, then industrial). ' +
        'A zip_code GeoNames places in another state than `state` is a 422 on create and update.',
      tags,
      params: propertyIdParams,
      response: propertyDetail.meta({ example: ex.propertyDetail }),
      notFound: 'Property not found',
    },
    (ownerId, id) => properties.detail(ownerId, id),
  );

  onOwned(
    api,
    'patch',
    '/pm/properties/:id',
    {
      summary: "Update any subset of a property's fields",
      description:
        'Same validation as create; null clears an optional field (required fields cannot be null). A new state that the ' +
        "property's tariff_id, supply_tariff_id or a meter's tariff is not of is a 422 on state, naming both.",
      tags,
      params: propertyIdParams,
      body: updatePropertyBody.meta({ example: ex.updatePropertyRequest }),
      response: propertyResponse.meta({ example: ex.property }),
      notFound: 'Property not found or Portfolio not found',
    },
    (ownerId, id, { body }) => properties.update(ownerId, id, body),
  );
}
