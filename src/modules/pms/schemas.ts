import { z } from 'zod';
import { pageSchema } from '../../platform/http/pagination';
import * as ex from './examples';
import { UNIT_STATUSES } from './unit-data';

const pmsRef = (what: string) => z.string().trim().min(1).max(200).describe(what);

export const linkBody = z
  .object({
    connection_id: pmsRef("the provider's connection identifier"),
    pms_property_id: pmsRef("the property's id in the PMS"),
  })
  .meta({ id: 'PmsLinkRequest', example: { connection_id: 'conn_8f2a', pms_property_id: 'prop_1042' } });

export type LinkInput = z.output<typeof linkBody>;

export const linkSessionResponse = z
  .object({
    id: z.string(),
    link_token: z
      .string()
      .describe(
        "hand it to the provider's connect flow, which reports it as the new connection's `reference`; " +
          'shown once (only its SHA-256 is stored)',
      ),
    expires_at: z.string().describe('ISO 8601; one hour after creation: link the property before then'),
  })
  .meta({ id: 'PmsLinkSession', example: ex.linkSession });

export const linkResponse = z
  .object({
    property_id: z.string(),
    connection_id: z.string(),
    pms_property_id: z.string(),
    linked_at: z.string().describe('ISO 8601'),
    last_synced_at: z.string().nullable().describe('when the last import of the units fetched them; null until one succeeded'),
    last_sync_error: z.string().nullable().describe('why the last import failed; null after a success'),
  })
  .meta({ id: 'PmsLink', example: ex.link });

export const unitResponse = z
  .object({
    id: z.string(),
    pms_unit_id: z.string(),
    unit_number: z.string(),
    sqft: z.number().nullable(),
    bedrooms: z.number().int().nullable(),
    bathrooms: z.number().nullable(),
    status: z.enum(UNIT_STATUSES),
    resident_name: z.string().nullable(),
    occupant_count: z.number().int().nullable(),
    lease_start: z.string().nullable().describe('YYYY-MM-DD'),
    lease_end: z.string().nullable().describe('YYYY-MM-DD'),
    updated_at: z.string(),
  })
  .meta({ id: 'PmsUnit' });

export const unitsPage = pageSchema(unitResponse).meta({ example: ex.unitsPage });
