import { z } from 'zod';
import { decimalNumber, isoDate } from '../../../platform/http/validate';
import { MAX_BILL_AMOUNT } from '../../bills/bill-rules';

/** A claim's or a credit's dollars: at least a cent, at most what a bill can be. */
const positiveMoney = decimalNumber(2).min(0.01).max(MAX_BILL_AMOUNT);
const note = z
  .string()
  .trim()
  .max(2000)
  .nullable()
  .optional()
  .meta({ description: "replaces the finding's note; omitted, the note stays" });
const closedOn = isoDate
  .optional()
  .meta({ description: 'the day the utility answered: not after today (UTC), not before the dispute; default today' });

export const disputeBody = z
  .object({
    disputed_on: isoDate.meta({
      description: "the day the claim was filed with the utility: not after today (UTC), not before the end of the bill's period",
    }),
    claim_reference: z.string().trim().min(1).max(100).meta({ description: "the utility's case or claim number" }),
    amount_claimed: positiveMoney.meta({
      description: "dollars claimed: at most the finding's amount at issue where it is an overcharge, else at most the bill's amount",
    }),
    note,
  })
  .meta({
    example: { disputed_on: '2026-07-08', claim_reference: '44-1182', amount_claimed: 3.15, note: 'Filed by phone with billing services' },
  });

export const creditBody = z
  .object({
    amount_credited: positiveMoney.meta({
      description: 'dollars the utility credited: at most the amount claimed (the rest is written off)',
    }),
    credit_bill_id: z.string().min(1).max(200).meta({
      description: "the bill that carries the credit: a bill of the disputed bill's meter whose period ends after the dispute was filed",
    }),
    closed_on: closedOn,
    note,
  })
  .meta({ example: { amount_credited: 3.15, credit_bill_id: '0d5e3c1b-7a2f-4e6d-9b8c-1a2b3c4d5e70', closed_on: '2026-08-12' } });

export const denyBody = z
  .object({ closed_on: closedOn, note })
  .meta({ example: { closed_on: '2026-08-12', note: 'The utility holds the read was actual' } });

export const dispute = z
  .object({
    disputed_on: z.string(),
    claim_reference: z.string(),
    amount_claimed: z.number(),
    amount_credited: z.number().nullable().meta({ description: 'on a credited finding: the credit' }),
    credit_bill_id: z
      .string()
      .nullable()
      .meta({ description: 'on a credited finding: the bill that carries the credit (null once that bill is deleted)' }),
    closed_on: z.string().nullable().meta({ description: 'on a credited or denied finding: the day the utility answered' }),
    written_off: z.number().meta({ description: 'on a closed dispute, the amount claimed less the credit; 0 while open' }),
  })
  .meta({
    description: 'the claim with the utility, on a disputed, credited or denied finding',
    example: {
      disputed_on: '2026-07-08',
      claim_reference: '44-1182',
      amount_claimed: 3.15,
      amount_credited: 3.15,
      credit_bill_id: '0d5e3c1b-7a2f-4e6d-9b8c-1a2b3c4d5e70',
      closed_on: '2026-08-12',
      written_off: 0,
    },
  });

export const recoveryQuery = z.object({
  property_id: z.string().min(1).max(200).optional(),
  portfolio_id: z.string().min(1).max(200).optional(),
  year: z.coerce.number().int().min(1).max(9999).optional().meta({ description: 'the year the claims were filed' }),
});

/** One property and year of the dashboard's recovered money (dollars). */
export const recoveryItem = z.object({
  property_id: z.string(),
  property_name: z.string(),
  year: z.number().int(),
  disputes: z.number().int(),
  claimed: z.number(),
  recovered: z.number(),
  written_off: z.number(),
  pending: z.number().meta({ description: 'claimed in disputes still open' }),
});
