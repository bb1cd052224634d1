import { z } from 'zod';
import type { ApiRouter } from '../../../platform/http/router';
import { callerId } from '../../../platform/http/auth';
import { onOwned } from '../../../platform/http/owned-routes';
import { finding, findingIdParams } from '../schemas';
import { presentFinding } from '../service';
import type { DisputeService } from './service';
import { creditBody, denyBody, disputeBody, recoveryQuery } from './schemas';

const tags = ['Bill audit'];
const transitionErrors = {
  409: 'the finding is not in a state that allows it (e.g. "the finding is resolved: only an open finding can be disputed")',
  422: 'a field out of range (a date after today, an amount above what may be claimed or credited, a bill of another meter)',
};

/** Disputes of findings with the utility, and the money recovered (audit README "Disputes and recovered money"). */
export function registerDisputeRoutes(api: ApiRouter, disputes: DisputeService): void {
  /** A finding's move from one state to the next: the finding id in the path, the move's fields in the body, the finding as it now is. */
  const transition = <B extends z.ZodType>(
    path: string,
    summary: string,
    description: string,
    body: B,
    move: (ownerId: string, findingId: string, input: z.output<B>) => Promise<Parameters<typeof presentFinding>[0]>,
  ) =>
    onOwned(
      api,
      'post',
      path,
      {
        summary,
        description,
        tags,
        params: findingIdParams,
        body,
        response: finding,
        errors: transitionErrors,
        notFound: 'Finding not found',
      },
      async (ownerId, id, { body: input }) => presentFinding(await move(ownerId, id, input)),
    );

  transition(
    '/pm/audit/findings/:id/dispute',
    'Dispute a finding with the utility',
    'An open finding becomes `disputed`: the day the claim was filed, the claim reference and the dollars claimed.',
    disputeBody,
    disputes.dispute,
  );

  transition(
    '/pm/audit/findings/:id/credit',
    'Close a dispute: credited',
    'A disputed finding becomes `credited`: the credit and the later bill of the meter that carries it. That bill is ' +
      'audited again expecting the credit (no finding arises from it); what the credit leaves of the claim is written off.',
    creditBody,
    disputes.credit,
  );

  transition(
    '/pm/audit/findings/:id/deny',
    'Close a dispute: denied',
    'A disputed finding becomes `denied`: the utility refused the claim, and its amount is written off.',
    denyBody,
    disputes.deny,
  );

  api.get(
    '/pm/audit/recovery/export.csv',
    {
      summary: 'Money claimed, recovered and written off, as CSV',
      description:
        'One row per property and year the claims were filed: disputes, dollars claimed, recovered (credits), written off ' +
        '(denied claims, and what a credit left of its claim) and pending (claims still open); claimed = recovered + written_off + pending. ' +
        'Newest year first, then by property name; RFC 4180, property names a spreadsheet could run as a formula with a leading apostrophe.',
      tags,
      auth: 'required',
      query: recoveryQuery,
      responseTypes: {
        'text/csv': z.string().meta({ example: 'year,property_id,property_name,disputes,claimed,recovered,written_off,pending\r\n' }),
      },
    },
    async ({ query, req, res }) => {
      const csv = await disputes.recoveryCsv(callerId(req), {
        propertyId: query.property_id,
        portfolioId: query.portfolio_id,
        year: query.year,
      });
      res.status(200).type('text/csv; charset=utf-8').attachment('audit-recovery.csv').send(csv);
    },
  );
}
