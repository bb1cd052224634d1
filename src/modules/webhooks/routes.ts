import { z } from 'zod';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponse, type ApiRouter } from '../../platform/http/router';
import { callerId } from '../../platform/http/auth';
import { READ_LIMIT_BYTES, WEBHOOK_RECEIVER_PATH } from './receiver';
import { MAX_BODY_BYTES } from './envelope';
import { MAX_JSON_DEPTH } from './json-depth';
import { MAX_FUTURE_SKEW_MS } from './clock-skew';
import { deadLetter, deadLettersResponse, eventEnvelope, eventIdParams, logsQuery, logsResponse, receiveAnswer } from './schemas';
import type { WebhookService } from './service';

const tags = ['PMS webhooks'];

/** Site-root endpoints with the API's authentication: GET /api/webhooks/logs. */
export function registerWebhookSiteRoutes(site: ApiRouter, webhooks: WebhookService): void {
  site.get(
    '/api/webhooks/logs',
    {
      summary: "Received PMS webhook events of the caller's connections, newest first",
      description:
        'Every delivery with a valid signature is logged: its processing status, the reason when it was ignored ' +
        'or failed, and the full payload. Only events of connections the caller holds (see PUT /api/v1/pm/properties/{id}/pms).',
      tags,
      auth: 'required',
      query: logsQuery,
      response: logsResponse,
    },
    ({ query, req }) => webhooks.logs(callerId(req), query),
  );
}

/** Operator endpoints under /api/v1/admin (X-Admin-Token). */
export function registerWebhookAdminRoutes(api: ApiRouter, webhooks: WebhookService): void {
  api.get(
    '/admin/webhooks/dead-letters',
    {
      summary: 'Webhook events that failed all their attempts (operator)',
      description: 'Newest first; replay one with POST /admin/webhooks/{id}/replay.',
      tags: ['Admin'],
      auth: 'admin',
      query: logsQuery,
      response: deadLettersResponse,
    },
    ({ query }) => webhooks.deadLetters(query),
  );

  api.post(
    '/admin/webhooks/:id/replay',
    {
      summary: 'Run a failed webhook event again (operator)',
      description:
        "Applies the event now, under its connection's stream lock, and " +
        'answers its log entry: `success` or `ignored` takes it off the dead-letter list, `failed` keeps it there with the new reason.',
      tags: ['Admin'],
      auth: 'admin',
      params: eventIdParams,
      response: deadLetter,
      errors: { 404: 'Webhook event not found (or ADMIN_TOKEN unset)', 409: 'The event is not failed, or was rejected on arrival' },
    },
    ({ params }) => webhooks.replay(params.id),
  );
}

/** The receiver is a plain router (it reads the raw body), so its documentation is registered here. */
export function documentWebhookReceiver(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: WEBHOOK_RECEIVER_PATH,
    tags,
    summary: 'Receive a signed event from the PMS data provider',
    description:
      'Header `X-Pms-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>`, keyed with `PMS_WEBHOOK_SECRET` ' +
      '(several comma-separated secrets: any one signs). The event is committed to the inbox before the answer and applied ' +
      "afterwards, each connection's events in the order received. A body received before answers `duplicate` and changes " +
      `nothing; \`test.ping\` answers \`{"status": "ok"}\`; unknown event types are logged \`ignored\`; a signed body that is ` +
      `not a valid event (not JSON, not an object, over ${MAX_BODY_BYTES} bytes, a missing or wrong-typed field, a \`timestamp\` ` +
      'that is not `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]` in the years 0001 to 9999, text with NUL or a lone UTF-16 surrogate) is logged ' +
      '`failed` with the reason and answered 200, so the provider does not retry it. An event whose `timestamp` is more ' +
      `than ${MAX_FUTURE_SKEW_MS / 60_000} minutes ahead of the time it is received is answered 422 and not stored (a date in the ` +
      'future would make every later event of its record look stale); a retry is taken once that time has come. Bodies over ' +
      `${READ_LIMIT_BYTES} bytes are refused unread (at once when their Content-Length says so), and so is a request without ` +
      'a header of the form `sha256=<64 hex digits>` (401). A signed body nested deeper than ' +
      `${MAX_JSON_DEPTH} levels (objects and arrays) is answered 422 and not stored. An address whose deliveries were refused ` +
      'unverified (401, 413) more than RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN times (default 60) this minute gets 429 until the minute ends; ' +
      'accepted deliveries are not counted.',
    security: [],
    request: {
      headers: z.object({ 'X-Pms-Signature': z.string().describe('sha256=<hex>') }),
      body: { required: true, content: { 'application/json': { schema: eventEnvelope } } },
    },
    responses: {
      200: {
        description: 'Stored (accepted, duplicate, ignored or failed), or the ping answered',
        content: { 'application/json': { schema: receiveAnswer } },
      },
      401: errorResponse('Missing or invalid signature: nothing is stored'),
      422: errorResponse(
        `A \`timestamp\` more than ${MAX_FUTURE_SKEW_MS / 60_000} minutes in the future, or JSON nested deeper than ` +
          `${MAX_JSON_DEPTH} levels: nothing is stored`,
      ),
      413: errorResponse(`Body over ${READ_LIMIT_BYTES} bytes: refused unread`),
      429: errorResponse(
        'Rate limit exceeded: more than RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN deliveries from the address refused unverified (401, 413) this minute',
      ),
      503: errorResponse('The database cannot commit the event: retry later (Retry-After)'),
    },
  });
}
