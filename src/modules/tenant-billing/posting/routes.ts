import type { ApiRouter } from '../../../platform/http/router';
import { onOwned } from '../../../platform/http/owned-routes';
import { NO_PMS } from '../calculate-from-pms';
import { calculationParams } from '../schemas';
import { postingState } from './schemas';
import type { RubsPostingService } from './service';
import { ALREADY_POSTED, ALREADY_REVERSED, NOT_ACTIVE, NOTHING_TO_POST, NOTHING_TO_REVERSE } from './service';

const tags = ['Tenant billing'];

const SENT =
  'Each line is sent by the worker, not in the request: `POST {PMS_API_URL}/v1/charges` with the bearer key and ' +
  '`Idempotency-Key: <calculation id>:<unit id>:<occupancy>:<post|reverse>`, 10 at a time. A 4xx from the provider fails the line ' +
  'with its reason at once; a 5xx, a time-out or a network error is tried 3 times in the job, then the job is retried with back-off ' +
  '(5, 10, 20 s), and what still fails after its last attempt is failed with the reason. A line is posted once however often it is ' +
  'sent: the key always names the same charge, and a posted line is never sent again. GET /billing/calculations/{id} shows ' +
  'each line (`posting`); asking again retries the failed lines.';

/** POST /billing/calculations/{id}/post and /reverse (README "Posting to the PMS ledger"). */
export function registerRubsPostingRoutes(api: ApiRouter, posting: RubsPostingService): void {
  registerAction(api, posting, 'post', {
    summary: "Post the calculation's charges to the tenants' ledgers in the PMS",
    description:
      'For a property linked to its PMS: one charge per occupied unit (per occupancy, for a unit that turned over) ' +
      'whose total_charge is not 0, to the PMS unit whose id is the unit_id (or whose imported record has it as its id), with ' +
      'the resident (tenant_name), the amount (total_charge), a description (`Water (RUBS) 2026-01-01 to 2026-01-31`, and the ' +
      'invoice number when the unit bill has one) and the charge date (the due date, else the last day of the period). ' +
      `${SENT} Answers 202 with the posting as it stands (lines pending).`,
    conflict: `${NOT_ACTIVE} (it is superseded or void); ${NOTHING_TO_POST}; ${ALREADY_POSTED} (every charge posted)`,
  });

  registerAction(api, posting, 'reverse', {
    summary: "Reverse the calculation's posted charges in the PMS ledger",
    description:
      'Posts, for every charge line whose post is posted and not reversed yet, the reversing charge: the same unit, ' +
      'resident and charge date, the amount negated and the description `Reversal of ...`, under the key ending in `:reverse`. ' +
      'A calculation of any status can be reversed (a superseded one is the usual case). Charges still pending or failed are ' +
      `not reversed. ${SENT} Answers 202 with the posting as it stands.`,
    conflict: `${NOTHING_TO_REVERSE} (no charge posted); ${ALREADY_REVERSED} (every posted charge reversed)`,
  });
}

/** POST /billing/calculations/{id}/<action>: queues the action's lines and answers 202 with the posting; `conflict` is its 409. */
function registerAction(
  api: ApiRouter,
  posting: RubsPostingService,
  action: 'post' | 'reverse',
  doc: { summary: string; description: string; conflict: string },
): void {
  onOwned(
    api,
    'post',
    `/billing/calculations/:id/${action}`,
    {
      summary: doc.summary,
      description: doc.description,
      tags,
      params: calculationParams,
      status: 202,
      response: postingState,
      errors: {
        400: `${NO_PMS} (no PMS link, or PMS_API_URL / PMS_API_KEY unset)`,
        409: doc.conflict,
      },
      notFound: 'Calculation not found',
    },
    (ownerId, id) => posting.request(ownerId, id, action),
  );
}
