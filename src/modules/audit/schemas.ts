import { z } from 'zod';
import { isoDate } from '../../platform/http/validate';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { WATER_BILL_LINE_ITEMS } from '../pricing/schemas';
import { BILL_AUDIT_STATUSES, PRICING_BASES, REASON_CODES, RESOLUTIONS, SEVERITIES, type ReasonCode } from './audit.types';
import { FINDING_STATUSES, type FindingStatus } from './disputes/dispute.calc';
import { dispute } from './disputes/schemas';

export const billIdParams = z.object({ id: z.string().min(1).max(200) });
export const findingIdParams = z.object({ id: z.string().min(1).max(200) });

const reason = z.enum(REASON_CODES as [ReasonCode, ...ReasonCode[]]);
const findingStatus = z.enum(FINDING_STATUSES as [FindingStatus, ...FindingStatus[]]);

const findingExample = {
  id: '7b1e9d2c-4a3f-4c8e-9f1a-2b3c4d5e6f70',
  bill_id: '0d5e3c1b-7a2f-4e6d-9b8c-1a2b3c4d5e6f',
  property_id: '2b9d7c1a-0e4f-4a6b-8c3d-5e6f7a8b9c0d',
  meter_id: '6f1c2a8e-3b7d-4c55-9a0e-1d2f3b4c5d6e',
  reason: 'price_variance',
  severity: 'high',
  amount_at_issue: 3.15,
  message:
    'billed $34.66, expected $31.51 on Residential water, inside city (5/8" meter): +$3.15 (+10 %); the billed amount matches the expected bill at 9.1 % more usage',
  details: {
    expected: 31.51,
    billed: 34.66,
    variance_percent: 10,
    tariff_id: 'ct_3f9c2a51d7e84b0c9a6e12f4b8d07c55',
    lines: null,
    basis: 'bill',
  },
  status: 'open',
  resolution: null,
  note: null,
  dispute: null,
  resolved_at: null,
  created_at: '2026-11-26T10:00:00.000Z',
  period_start: '2026-06-01',
  period_end: '2026-06-30',
};

export const finding = z
  .object({
    id: z.string(),
    bill_id: z.string(),
    property_id: z.string(),
    meter_id: z.string(),
    reason: reason.meta({ description: 'the rule that found it (audit README "Rules")' }),
    severity: z.enum(SEVERITIES),
    amount_at_issue: z
      .number()
      .nullable()
      .meta({ description: 'dollars at issue (positive: billed more than it should be); null where the rule has no amount' }),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).meta({
      description:
        'the figures behind the message, by reason (audit README "Rules"); a meter-level cause (expired_tariff, ' +
        'demand_above_applicability) lists the bills it covers in `bills` (bill_id, period_start, period_end) with `bill_count`; ' +
        'likely_unit_error gives `factor` (10, 100, 1000, ...), `direction` (too_large, too_small), `basis` (unit_price, history) ' +
        'and `corrected_usage`',
    }),
    status: findingStatus.meta({ description: 'open; resolved (resolution says how); disputed with the utility, then credited or denied' }),
    resolution: z.enum(RESOLUTIONS).nullable(),
    note: z.string().nullable(),
    dispute: dispute.nullable(),
    resolved_at: z.string().nullable(),
    created_at: z.string(),
    period_start: z.string().optional(),
    period_end: z.string().optional(),
  })
  .meta({ example: findingExample });

export const billAuditResponse = z
  .object({
    bill_id: z.string(),
    meter_id: z.string(),
    status: z
      .enum(BILL_AUDIT_STATUSES)
      .meta({ description: 'ok: within the tolerance; variance: a price_variance finding; unpriceable: reason says why' }),
    reason: z.string().nullable(),
    tariff_id: z.string().nullable(),
    billed_amount: z.number(),
    expected_amount: z.number().nullable(),
    variance: z.number().nullable().meta({ description: 'billed - expected, dollars' }),
    variance_percent: z.number().nullable(),
    expected_line_items: z.array(z.object({ category: z.string(), name: z.string(), amount: z.number() })).nullable(),
    basis: z
      .enum(PRICING_BASES)
      .nullable()
      .meta({
        description:
          "what the expected amount was priced from: intervals, the meter's interval readings covering every interval of the period " +
          "(usage, time-of-use split and demand measured); bill, the bill's usage and demand (time of use split by a load shape); null when unpriced",
      }),
    basis_note: z.string().nullable().meta({
      description: "why the meter's interval readings were not used (they do not cover the whole period), where it has some; else null",
    }),
    findings: z.array(finding),
    audited_at: z.string(),
    stale: z
      .boolean()
      .meta({ description: 'true while an audit asked for after a change is queued: these are the figures of the audit before it' }),
  })
  .meta({
    example: {
      bill_id: findingExample.bill_id,
      meter_id: findingExample.meter_id,
      status: 'variance',
      reason: null,
      tariff_id: findingExample.details.tariff_id,
      billed_amount: 34.66,
      expected_amount: 31.51,
      variance: 3.15,
      variance_percent: 10,
      // POST /calculate's water bill of 12 kgal, over the whole of June
      expected_line_items: WATER_BILL_LINE_ITEMS.map((line) => ({ ...line, name: `${line.name} (30/30 days in June)` })),
      basis: 'bill',
      basis_note: null,
      findings: [findingExample],
      audited_at: '2026-11-26T10:00:00.000Z',
      stale: false,
    },
  });

export const findingsQuery = pageQuery.extend({
  property_id: z.string().min(1).max(200).optional(),
  portfolio_id: z.string().min(1).max(200).optional(),
  meter_id: z.string().min(1).max(200).optional(),
  reason: reason.optional(),
  status: findingStatus.optional(),
  from: isoDate.optional().meta({ description: 'bills whose period ends on or after this day' }),
  to: isoDate.optional().meta({ description: 'bills whose period ends on or before this day' }),
});

export const findingsPage = pageSchema(finding).meta({ example: { items: [findingExample], total: 1, page: 1, per_page: 20, pages: 1 } });

export const resolveBody = z
  .object({
    resolution: z.enum(RESOLUTIONS).meta({ description: 'disputed with the utility, accepted as billed, or corrected by the utility' }),
    note: z.string().trim().max(2000).nullable().optional(),
  })
  .meta({ example: { resolution: 'disputed', note: 'Claim 44-1182 filed with the utility on 2026-07-08' } });

export const settingsBody = z
  .object({
    tolerance_percent: z
      .number()
      .min(0)
      .max(100)
      .multipleOf(0.01)
      .meta({ multipleOf: 0.01, description: 'a variance within this percent of the expected amount is ok (default 3)' }),
  })
  .meta({ example: { tolerance_percent: 2.5 } });

export const settingsResponse = z.object({ tolerance_percent: z.number() }).meta({ example: { tolerance_percent: 2.5 } });
