import { z } from 'zod';
import type { ApiRouter } from '../../platform/http/router';
import { pageSchema } from '../../platform/http/pagination';
import { getPageOfOwnedList, onOwned } from '../../platform/http/owned-routes';
import { propertyIdParams } from '../properties/schemas';
import { createMeterBody, meterIdParams, meterResponse, updateMeterBody } from './schemas';
import * as ex from './examples';
import type { MeterService } from './service';
import { importReport, intervalReadings, intervalUploadBody, loadProfileResponse, profileQuery, readQuery } from './intervals/schemas';
import { loadProfileSvg, readingsCsv, type IntervalService } from './intervals/service';

const tags = ['Meters'];

export function registerMeterRoutes(api: ApiRouter, meters: MeterService, intervals: IntervalService): void {
  onOwned(
    api,
    'post',
    '/pm/properties/:id/meters',
    {
      summary: 'Add a meter to a property',
      description:
        'A meter of a utility type (electric, gas, water, sewer, trash, steam, fuel_oil_2, fuel_oil_4, fuel_oil_5_6, other) reading in one of its units. ' +
        'The first meter of a type on a property is its default: bills of that type sent without meter_id go to it ' +
        '(one is created on first use when a bill arrives before any meter).',
      tags,
      params: propertyIdParams,
      body: createMeterBody,
      status: 201,
      response: meterResponse,
      notFound: 'Property not found',
      errors: {
        422: 'Validation error (field required, a unit of another type, Tariff not found, a tariff of another state)',
      },
    },
    (ownerId, id, { body }) => meters.create(ownerId, id, body),
  );

  getPageOfOwnedList(
    api,
    '/pm/properties/:id/meters',
    {
      summary: "List a property's meters, oldest first",
      tags,
      params: propertyIdParams,
      notFound: 'Property not found',
      response: pageSchema(meterResponse).meta({ example: { items: [ex.meter], total: 1, page: 1, per_page: 20, pages: 1 } }),
    },
    meters.list,
  );

  onOwned(
    api,
    'patch',
    '/pm/meters/:id',
    {
      summary: "Update a meter's unit, name, numbers, tariff or is_active",
      description:
        'utility_type cannot change. A new unit applies to bills recorded from then on; each bill keeps its own unit. ' +
        'null clears account_number, meter_number or tariff_id.',
      tags,
      params: meterIdParams,
      body: updateMeterBody,
      response: meterResponse,
      notFound: 'Meter not found',
      errors: {
        422: 'Validation error (a unit of another type, utility_type changed, Tariff not found, a tariff of another state)',
      },
    },
    (ownerId, id, { body }) => meters.update(ownerId, id, body),
  );

  registerIntervalRoutes(api, intervals);
}

function registerIntervalRoutes(api: ApiRouter, intervals: IntervalService): void {
  onOwned(
    api,
    'post',
    '/pm/meters/:id/intervals',
    {
      summary: "Import an electric meter's interval readings (Green Button)",
      description:
        'multipart/form-data, field `file`: Green Button ESPI XML (IntervalBlock/IntervalReading; ReadingType uom 72 (Wh) ' +
        'and powerOfTenMultiplier; forward flow) or a "Download My Data" CSV (PG&E, SCE, SDG&E layouts, or start,end,kwh). Streamed; ' +
        'readings merge into what is stored (a newer reading of an interval replaces the older). A file that is neither is a 422 ' +
        'on `file`. Electric meters only. Meters README "Interval data".',
      tags,
      params: meterIdParams,
      body: intervalUploadBody,
      bodyType: 'multipart/form-data',
      response: importReport,
      notFound: 'Meter not found',
      errors: {
        413: 'File too large',
        415: 'Not a multipart/form-data request',
        422: 'Not a Green Button file, or not an electric meter',
      },
    },
    (ownerId, id, { req }) => intervals.importFile(ownerId, id, { headers: req.headers, body: req }),
  );

  onOwned(
    api,
    'get',
    '/pm/meters/:id/intervals',
    {
      summary: "Read an electric meter's interval readings over a range",
      description: "JSON, or CSV (start,end,kwh) with `Accept: text/csv` or `?format=csv`. Local times in the property's time zone.",
      tags,
      params: meterIdParams,
      query: readQuery,
      response: intervalReadings,
      responseTypes: {
        'text/csv': z.string().meta({ example: 'start,end,kwh\r\n2019-07-01T00:00:00-07:00,2019-07-01T00:15:00-07:00,1.25\r\n' }),
      },
      notFound: 'Meter not found',
      errors: { 422: 'Validation error (range, not an electric meter)' },
    },
    async (ownerId, id, { query, req, res }) => {
      const body = await intervals.read(ownerId, id, query);
      if (query.format === 'csv' || (query.format === undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv')) {
        res.status(200).type('text/csv; charset=utf-8').attachment(`meter-${body.meter_id}-intervals.csv`).send(readingsCsv(body.readings));
        return undefined;
      }
      return body;
    },
  );

  onOwned(
    api,
    'get',
    '/pm/meters/:id/load-profile',
    {
      summary: "An electric meter's load profile over a range",
      description:
        'Peak kW and when, load factor, base load, after-hours share, the average weekday and weekend day by hour (meters ' +
        'README "Load profile"); as an SVG chart with `Accept: image/svg+xml` or `?format=svg`.',
      tags,
      params: meterIdParams,
      query: profileQuery,
      response: loadProfileResponse,
      responseTypes: { 'image/svg+xml': z.string().meta({ example: '<svg xmlns="http://www.w3.org/2000/svg" role="img">...</svg>' }) },
      notFound: 'Meter not found',
      errors: { 422: 'Validation error (range, not an electric meter)' },
    },
    async (ownerId, id, { query, req, res }) => {
      const profile = await intervals.loadProfile(ownerId, id, query);
      if (
        query.format === 'svg' ||
        (query.format === undefined && req.accepts(['application/json', 'image/svg+xml']) === 'image/svg+xml')
      ) {
        const title = `${profile.meter_name}: load profile, ${profile.start.slice(0, 10)} to ${profile.end.slice(0, 10)}`;
        res.status(200).type('image/svg+xml; charset=utf-8').send(loadProfileSvg(profile, title));
        return undefined;
      }
      return profile;
    },
  );
}
