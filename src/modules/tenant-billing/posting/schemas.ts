import { z } from 'zod';
import { calculationResponse } from '../schemas.response';
import { calculationResponse as calculationExample } from '../examples';
import { POSTING_ACTIONS, POSTING_STATUSES } from '../tables';

/** What the posting of a calculation to the PMS ledger is, as a whole (README "Posting to the PMS ledger"). */
export const POSTING_SUMMARY_STATUSES = [
  'not_posted',
  'pending',
  'posted',
  'partially_posted',
  'failed',
  'unknown',
  'reversing',
  'reversed',
  'partially_reversed',
] as const;
export type PostingSummaryStatus = (typeof POSTING_SUMMARY_STATUSES)[number];
export type PostingAction = (typeof POSTING_ACTIONS)[number];
export type PostingLineStatus = (typeof POSTING_STATUSES)[number];

const at = '2026-02-05T10:00:01.250Z';
const postedLine = (unitId: string, amount: number, chargeId: string) => ({
  unit_id: unitId,
  occupancy: 0,
  action: 'post' as const,
  amount,
  status: 'posted' as const,
  provider_charge_id: chargeId,
  error: null,
  attempts: 1,
  updated_at: at,
});

/** The posting of README example 1's calculation: units 101 and 102 posted, 103 refused by the provider. */
export const postingExample = {
  status: 'partially_posted' as const,
  charges: 3,
  posted: 2,
  pending: 0,
  failed: 1,
  unknown: 0,
  reversed: 0,
  lines: [
    postedLine('101', 472.5, 'chg_9f2c01'),
    postedLine('102', 354.38, 'chg_9f2c02'),
    {
      unit_id: '103',
      occupancy: 0,
      action: 'post' as const,
      amount: 118.13,
      status: 'failed' as const,
      provider_charge_id: null,
      error: 'HTTP 422: resident has moved out',
      attempts: 1,
      updated_at: at,
    },
  ],
};

export const postingLine = z.object({
  unit_id: z.string().meta({ description: "The calculation's unit id (unit_bills[].unit_id)" }),
  occupancy: z.number().int().meta({
    description: "The unit bill's occupancy number: 0 for a unit with one tenant in the period; for a unit that turned over, its occupancy",
  }),
  action: z.enum(POSTING_ACTIONS).meta({ description: 'post: the charge; reverse: the charge that cancels it (negative amount)' }),
  amount: z.number().meta({ description: 'USD with 2 decimals, as sent to the provider: total_charge, negated for a reversal' }),
  status: z.enum(POSTING_STATUSES).meta({
    description:
      'pending: waiting for the worker or being sent (also between retries after a 5xx or a time-out); posted: the ' +
      'provider answered with its charge id; failed: not posted, `error` says why (a 4xx, or nothing ever reached the provider); ' +
      'unknown: sent, and the answer was lost or ambiguous (a time-out, a 5xx, a connection cut): the charge may exist, so it ' +
      'counts as on the ledger (the calculation can be neither voided nor re-billed) until reconciled: POST .../post sends ' +
      'it again under the same Idempotency-Key (the provider answers with the charge it made, or makes it), POST .../reverse ' +
      'does that and then reverses it',
  }),
  provider_charge_id: z.string().nullable().meta({ description: "The provider's charge id, once posted" }),
  error: z
    .string()
    .nullable()
    .meta({ description: 'Why the line is failed, or why its last try failed while it is pending; null once posted' }),
  attempts: z.number().int().meta({ description: 'Calls made to the provider for this line so far, every retry included' }),
  updated_at: z.string().meta({ description: 'When the line last changed (ISO 8601)' }),
});
export type PostingLine = z.output<typeof postingLine>;

export const postingState = z
  .object({
    status: z.enum(POSTING_SUMMARY_STATUSES).meta({
      description:
        'not_posted: never posted; pending: charges queued or being sent; posted: every charge posted; ' +
        "partially_posted / failed: some / all charges failed (POST .../post again retries them); unknown: some charges' " +
        'outcome is unknown (POST .../post again reconciles them); reversing: reversals ' +
        'being sent; reversed: every posted charge reversed; partially_reversed: some posted charges not reversed ' +
        '(failed, or posted after the reversal was asked: POST .../reverse again)',
    }),
    charges: z
      .number()
      .int()
      .meta({ description: 'Charge lines of the calculation that were asked to be posted (occupied units with a charge)' }),
    posted: z.number().int().meta({ description: 'Charge lines posted (action post)' }),
    pending: z.number().int().meta({ description: 'Lines pending, both actions' }),
    failed: z.number().int().meta({ description: 'Lines failed, both actions' }),
    unknown: z.number().int().meta({ description: 'Lines whose outcome is unknown (sent, the answer lost or ambiguous), both actions' }),
    reversed: z.number().int().meta({ description: 'Reversing charges posted (action reverse)' }),
    lines: z.array(postingLine).meta({ description: 'Every line by unit_id, occupancy, then post before reverse' }),
  })
  .meta({
    description: "The calculation's charges on the tenants' ledgers in the PMS: one line per charged unit (and occupancy) and action",
    example: postingExample,
  });
export type PostingState = z.output<typeof postingState>;

/** GET /billing/calculations/{id}: the calculation as calculate-rubs answered it, and its posting. */
export const storedCalculationResponse = calculationResponse
  .extend({ posting: postingState })
  .meta({ example: { ...calculationExample, posting: postingExample } });
