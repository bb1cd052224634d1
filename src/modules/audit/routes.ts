import { z } from 'zod';
import type { ApiRouter } from '../../platform/http/router';
import type { Limits } from '../../platform/http/limits';
import { callerId } from '../../platform/http/auth';
import { onOwned } from '../../platform/http/owned-routes';
import type { AuditService } from './service';
import { registerDisputeRoutes } from './disputes/routes';
import {
  billAuditResponse,
  billIdParams,
  finding,
  findingIdParams,
  findingsPage,
  findingsQuery,
  resolveBody,
  settingsBody,
  settingsResponse,
} from './schemas';

const tags = ['Bill audit'];

/** The findings filter of a query (its snake_case ids as the repository names them). */
const filterOf = <Q extends { property_id?: string; portfolio_id?: string; meter_id?: string }>(q: Q) => ({
  ...q,
  propertyId: q.property_id,
  portfolioId: q.portfolio_id,
  meterId: q.meter_id,
});

export function registerAuditRoutes(api: ApiRouter, audit: AuditService, limits: Pick<Limits, 'audit'>): void {
  onOwned(
    api,
    'get',
    '/pm/bills/:id/audit',
    {
      summary: "A bill's audit: re-priced on its tariff, and what the rules found",
      description:
        'The stored audit (it is not run again on a read): the expected amount on the tariff version(s) in force over the ' +
        'period (prorated by days), the variance, and the findings of every rule (audit README). `stale` is true while an audit ' +
        'asked for after a change (a bill, the meter, a tariff, the tolerance) is queued: the figures are those of the audit before ' +
        'it. A bill never audited is audited on its first read. POST runs the audit now.',
      tags,
      params: billIdParams,
      response: billAuditResponse,
      notFound: 'Bill not found',
    },
    (ownerId, id) => audit.billAudit(ownerId, id),
  );

  onOwned(
    api,
    'post',
    '/pm/bills/:id/audit',
    {
      summary: "Audit a bill's meter now",
      description:
        "Every bill of the bill's meter is re-priced and its rules run now (as the bill-audit queue would), and the bill's " +
        'audit is answered as GET answers it, `stale` false unless another change came in meanwhile. An account may run ' +
        'RATE_LIMIT_AUDIT_PER_MIN (default 20) a minute, with its token and API keys together; the next gets 429 `Rate limit ' +
        'exceeded` until the minute ends (Retry-After). The RateLimit-* headers are those of this limit or of the daily quota, ' +
        'whichever has fewer requests left.',
      tags,
      params: billIdParams,
      response: billAuditResponse,
      notFound: 'Bill not found',
      errors: {
        429: 'Rate limit exceeded (more than RATE_LIMIT_AUDIT_PER_MIN re-audits by the account this minute), or Daily request quota exceeded',
      },
      middleware: [limits.audit],
    },
    (ownerId, id) => audit.reaudit(ownerId, id),
  );

  api.get(
    '/pm/audit/findings',
    {
      summary: 'Audit findings',
      description: 'The newest bills first; filters combine (AND).',
      tags,
      auth: 'required',
      query: findingsQuery,
      response: findingsPage,
    },
    ({ query, req }) => audit.findings(callerId(req), filterOf(query)),
  );

  // Registered before /pm/audit/findings/:id/... so the literal path wins.
  api.get(
    '/pm/audit/findings/export.csv',
    {
      summary: 'Audit findings as CSV',
      description:
        'The findings the filters select, all of them (at most 100,000 rows), newest bill first; RFC 4180 with a header row, ' +
        'amounts with 2 decimals; text a spreadsheet could run as a formula (= + - @ first, also after spaces or after a `,` or `;` ' +
        'within it) with a leading apostrophe, and fields holding `;` quoted (spreadsheet formula injection).',
      tags,
      auth: 'required',
      query: findingsQuery.omit({ page: true, per_page: true }),
      responseTypes: {
        'text/csv': z.string().meta({
          example:
            'finding_id,bill_id,property_id,meter_id,period_start,period_end,reason,severity,amount_at_issue,message,status,resolution,note,created_at\r\n',
        }),
      },
    },
    async ({ query, req, res }) => {
      const csv = await audit.exportCsv(callerId(req), filterOf(query));
      res.status(200).type('text/csv; charset=utf-8').attachment('audit-findings.csv').send(csv);
    },
  );

  onOwned(
    api,
    'post',
    '/pm/audit/findings/:id/resolve',
    {
      summary: 'Resolve a finding',
      tags,
      params: findingIdParams,
      body: resolveBody,
      response: finding,
      notFound: 'Finding not found',
      errors: {
        409: 'the finding is in dispute (disputed, credited or denied)',
        422: 'the finding is already resolved',
      },
    },
    (ownerId, id, { body }) => audit.resolve(ownerId, id, body),
  );

  api.get(
    '/pm/audit/settings',
    {
      summary: 'Audit settings',
      description: 'The price tolerance the bills are audited with (3 % until changed).',
      tags,
      auth: 'required',
      response: settingsResponse,
    },
    ({ req }) => audit.settings(callerId(req)),
  );

  api.patch(
    '/pm/audit/settings',
    {
      summary: 'Audit settings',
      description: 'The price tolerance; the bills are audited again with it.',
      tags,
      auth: 'required',
      body: settingsBody,
      response: settingsResponse,
    },
    ({ body, req }) => audit.updateSettings(callerId(req), body),
  );

  registerDisputeRoutes(api, audit.disputes);
}
