import type { z } from 'zod';
import type { ApiRouter, RouteSpec } from '../../platform/http/router';
import { callerId } from '../../platform/http/auth';
import { onOwned } from '../../platform/http/owned-routes';
import { propertyIdParams } from '../properties/schemas';
import {
  buildingPerformanceQuery,
  buildingPerformanceResponse,
  emissionsQuery,
  emissionsResponse,
  occupancyBody,
  occupancyResponse,
  portfolioEmissionsQuery,
  portfolioEmissionsResponse,
  propertyUsesBody,
  propertyUsesResponse,
} from './schemas';
import type { EmissionsService } from './service';
import { whatIfBody, whatIfResponse } from './what-if.schemas';
import type { WhatIfService } from './what-if.service';

const tags = ['Emissions'];

type PropertySpec<B extends z.ZodType, Q extends z.ZodType> = Omit<
  RouteSpec<B, Q, typeof propertyIdParams>,
  'tags' | 'auth' | 'params' | 'errors'
>;

export function registerEmissionsRoutes(api: ApiRouter, emissions: EmissionsService, whatIf: WhatIfService): void {
  /**
   * A route on one of the caller's properties (`/pm/properties/:id/...`), in the onOwned frame: 404
   * when the id is not one of theirs, and `invalid` the 422 it documents, if any. `handle` gets the
   * caller's id, the property's id and the validated body and query.
   */
  const onProperty = <B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown>(
    method: 'get' | 'put' | 'post',
    path: string,
    spec: PropertySpec<B, Q> & { invalid?: string },
    handle: (userId: string, propertyId: string, input: { body: z.output<B>; query: z.output<Q> }) => unknown,
  ): void => {
    const { invalid, ...route } = spec;
    onOwned<typeof propertyIdParams, B, Q>(
      api,
      method,
      path,
      { ...route, tags, params: propertyIdParams, errors: invalid === undefined ? {} : { 422: invalid }, notFound: 'Property not found' },
      handle,
    );
  };

  api.get(
    '/pm/emissions',
    {
      summary: "The caller's properties' emissions for a calendar year, totalled, with intensities",
      description:
        "Each property's location-based total (as GET /pm/properties/{id}/emissions gives it), their sum, and kg CO2e " +
        'per sqft over the properties with sqft. `portfolio_id` narrows to one portfolio; `year` defaults to the year of the latest bill.',
      tags,
      auth: 'required',
      query: portfolioEmissionsQuery,
      response: portfolioEmissionsResponse,
      errors: { 404: 'Portfolio not found', 422: 'Validation error (year, portfolio_id)' },
    },
    ({ query, req }) => emissions.portfolioEmissions(callerId(req), query),
  );

  onProperty(
    'get',
    '/pm/properties/:id/emissions',
    {
      summary: "A property's greenhouse gas emissions for a calendar year, per month and per meter",
      description:
        "Location-based, in metric tons CO2e, from the meters' bills (calendarised by days). Electricity: the eGRID2022 " +
        "total output rate (SRC2ERTA) of the property ZIP code's first Power Profiler subregion, no grid loss; natural gas, " +
        "district steam and fuel oil No. 2 and No. 4: EPA's Emission Factors Hub. Other fuels (fuel oil No. 5/6, other), water, sewer " +
        'and trash meters are listed with the reason they are ' +
        'not counted. `factors` names each factor used, its source and year.',
      query: emissionsQuery,
      response: emissionsResponse,
      invalid: 'Validation error (year)',
    },
    (userId, propertyId, { query }) => emissions.propertyEmissions(userId, propertyId, query),
  );

  onProperty(
    'get',
    '/pm/properties/:id/building-performance',
    {
      summary: "The building-performance standard of a property's place, and the year against it",
      description:
        "New York City (the ZIP code in one of its five counties): Local Law 97, the year's emissions by the law's own " +
        "coefficients (§ 28-320.3.1.1), its limit from the occupancy groups recorded with PUT .../occupancy and the law's " +
        '2024-2029 intensity limits (§ 28-320.3.1, area weighted), the excess and the projected penalty ($268 a ton, § 28-320.6). ' +
        "With Portfolio Manager uses recorded (PUT .../property-uses) the limit is the rule's per property type (1 RCNY " +
        '§ 103-14(c)(3), as quoted) from 2026 and for 2030-2034, and for 2024-2025 the more lenient of the two (`limit_basis`); a ' +
        'use without a confirmed limit is `limit_not_confirmed`, named. ' +
        "2030-2034 gives the law's own limit (§ 28-320.3.2) against the year's energy by the coefficients the law leaves to rule " +
        '(1 RCNY § 103-14(d)(3)(ii): electricity 0.000145 tCO2e/kWh, natural gas 0.00005311 tCO2e/kBtu, as quoted by three ' +
        "independent sources), with its excess and penalty; a year with district steam is `not_confirmed` there (the rule's steam " +
        'coefficient is not confirmed). `limit_tco2e` (the limit the ' +
        "building's LL97 report states) overrides the computed limit. Denver: Energize Denver, the year's site EUI (not weather normalized) " +
        'against the final target blended over the uses recorded with PUT .../property-uses (`energize_denver`), no penalty. Boston: ' +
        "BERDO 2.0 (`berdo`), the year's emissions by the city's factors against the standard blended over the recorded uses, the " +
        'excess and the alternative compliance payment, `not_confirmed` naming what is missing (years other than 2025 and 2026, ' +
        'unmapped types, fuel oil); ' +
        'elsewhere `applies` is false with a message saying no standard applies.',
      query: buildingPerformanceQuery,
      response: buildingPerformanceResponse,
      invalid: 'Validation error (year, limit_tco2e)',
    },
    (userId, propertyId, { query }) => emissions.buildingPerformance(userId, propertyId, query),
  );

  onProperty(
    'get',
    '/pm/properties/:id/occupancy',
    {
      summary: "A property's occupancy groups and their gross floor areas (what Local Law 97 sets limits on)",
      response: occupancyResponse,
    },
    (userId, propertyId) => emissions.occupancy(userId, propertyId),
  );

  onProperty(
    'put',
    '/pm/properties/:id/occupancy',
    {
      summary: "Replace a property's occupancy groups and their gross floor areas",
      description:
        'Each NYC Building Code occupancy group at most once, with its gross floor area in sf; an empty list clears them. ' +
        "A mixed-use building lists each group: its LL97 limit is the groups' limits, each times its area, summed.",
      body: occupancyBody,
      response: occupancyResponse,
      invalid: 'Validation error (an unknown group, a group twice, an area out of range)',
    },
    (userId, propertyId, { body }) => emissions.replaceOccupancy(userId, propertyId, body),
  );

  onProperty(
    'get',
    '/pm/properties/:id/property-uses',
    {
      summary: "A property's ENERGY STAR Portfolio Manager property uses and their gross floor areas",
      description:
        'What Energize Denver (and BERDO 2.0, and from 2026 New York City) set their numbers on: each Portfolio Manager property ' +
        'type with its gross floor area in sf.',
      response: propertyUsesResponse,
    },
    (userId, propertyId) => emissions.propertyUses(userId, propertyId),
  );

  onProperty(
    'put',
    '/pm/properties/:id/property-uses',
    {
      summary: "Replace a property's Portfolio Manager property uses and their gross floor areas",
      description:
        'Each ENERGY STAR Portfolio Manager property type (spelled as Portfolio Manager spells it) at most once, with its gross ' +
        'floor area in sf; an empty list clears them. A mixed-use building lists each use: its Energize Denver final target is the ' +
        "uses' targets, each times its area, summed over the total area.",
      body: propertyUsesBody,
      response: propertyUsesResponse,
      invalid: 'Validation error (an unknown property type, a type twice, an area out of range)',
    },
    (userId, propertyId, { body }) => emissions.replacePropertyUses(userId, propertyId, body),
  );

  onProperty(
    'post',
    '/pm/properties/:id/what-if',
    {
      summary: "A property's year before and after named changes: energy, emissions, building-performance penalty and cost",
      description:
        'Changes, applied in order: `cut` a utility type (electric or gas) by a percent; `electrify` a gas meter onto an electric ' +
        "meter, kWh = therms x 100 / 3.412 x gas_efficiency / electric_efficiency over the same days. Both sides give the year's " +
        'energy per type, location-based emissions (factors named), the building-performance exposure per standard and period (as ' +
        "GET .../building-performance computes it) and the electric and gas meters' cost: each bill re-priced with its usage before and " +
        "after on its meter's tariff, as the bill audit prices it, or where no tariff prices it its billed amount scaled by usage (`cost_basis`).",
      body: whatIfBody,
      response: whatIfResponse,
      invalid: "Validation error (a change out of range or repeated, a meter that is not the property's gas or electric meter)",
    },
    (userId, propertyId, { body }) => whatIf.whatIf(userId, propertyId, body),
  );
}
