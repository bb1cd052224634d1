import type { ApiRouter } from '../../platform/http/router';
import { notFound } from '../../platform/http/errors';
import { getPageOfOwnedList, onOwned } from '../../platform/http/owned-routes';
import { callerId } from '../../platform/http/auth';
import { propertyIdParams } from '../properties/schemas';
import { linkBody, linkResponse, linkSessionResponse, unitsPage } from './schemas';
import { CONNECTION_TAKEN, NOT_AUTHORISED, NO_PROVIDER, PROVIDER_UNREACHABLE, type PmsService } from './service';

const tags = ['PMS'];

export function registerPmsRoutes(api: ApiRouter, pms: PmsService): void {
  api.post(
    '/pm/pms/link-sessions',
    {
      summary: 'Start a PMS link session: the token that proves to us which account authorised a connection at the provider',
      description:
        "Step 1 of binding a PMS connection to this account. Hand `link_token` to the PMS data provider's connect " +
        'flow; the provider creates the connection and reports the token as its `reference` ' +
        '(`GET {PMS_API_URL}/v1/connections/{connection_id}`). Step 2: `PUT /pm/properties/{id}/pms` with that ' +
        '`connection_id` within the hour binds the connection to this account. The token is shown once (only its SHA-256 ' +
        'is stored), proves one connection, and is answered with `Cache-Control: no-store`.',
      tags,
      auth: 'required',
      status: 201,
      response: linkSessionResponse,
      errors: { 400: NO_PROVIDER },
    },
    async ({ req, res }) => {
      const session = await pms.createLinkSession(callerId(req));
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      return session;
    },
  );

  onOwned(
    api,
    'put',
    '/pm/properties/:id/pms',
    {
      summary: 'Link a property to its record in the PMS and import its units',
      description:
        'A connection is bound to the account the PMS data provider says authorised it, never to the first that ' +
        'names it: a `connection_id` bound to this account links at once; one bound to another account is 409; an unbound ' +
        'one is asked of the provider (`GET {PMS_API_URL}/v1/connections/{connection_id}`), and is bound to this account ' +
        'only when its `reference` is the `link_token` of an unexpired link session of this account (`POST ' +
        '/pm/pms/link-sessions`) used for no other connection; otherwise 403. The same account may link several ' +
        "properties on one connection; unlinking the last of them frees it. Linking queues an import of the property's " +
        'units from the provider (see `last_synced_at`); relinking to another PMS property drops the units imported from ' +
        'the old one.',
      tags,
      params: propertyIdParams,
      body: linkBody,
      response: linkResponse,
      notFound: 'Property not found',
      errors: {
        400: `${NO_PROVIDER} (to bind a connection not yet bound to this account)`,
        403: NOT_AUTHORISED,
        409: `${CONNECTION_TAKEN}, or the PMS property is linked to another property`,
        502: PROVIDER_UNREACHABLE,
      },
    },
    (ownerId, id, { body }) => pms.link(ownerId, id, body),
  );

  onOwned(
    api,
    'get',
    '/pm/properties/:id/pms',
    {
      summary: "A property's PMS link and the state of its last import",
      tags,
      params: propertyIdParams,
      response: linkResponse,
      notFound: 'Property not found, or PMS link not found',
    },
    async (ownerId, id) => {
      const link = await pms.getLink(ownerId, id);
      if (!link) throw notFound('PMS link not found');
      return link;
    },
  );

  onOwned(
    api,
    'delete',
    '/pm/properties/:id/pms',
    {
      summary: 'Unlink a property from the PMS (its imported units are removed)',
      description:
        'Unlinking the last property of a connection frees the connection: its webhook events are ignored like ' +
        "those of an unknown connection, and binding it again takes the provider's word again (a link session).",
      tags,
      params: propertyIdParams,
      status: 204,
      notFound: 'Property not found',
    },
    (ownerId, id) => pms.unlink(ownerId, id),
  );

  getPageOfOwnedList(
    api,
    '/pm/properties/:id/units',
    {
      summary: "A linked property's units, as the PMS reports them",
      description: 'Ordered by unit_number. Kept current by the PMS webhooks and imports.',
      tags,
      params: propertyIdParams,
      notFound: 'Property not found',
      response: unitsPage,
    },
    pms.listUnits,
  );
}
