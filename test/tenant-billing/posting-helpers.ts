/** What the posting tests share: the API key of the fake PMS ledger, the answers' shapes, the units. */
import { EXAMPLE_UNITS } from './helpers';

export const API_KEY = 'ledger-key';

export interface Line {
  unit_id: string;
  occupancy: number;
  action: string;
  amount: number;
  status: string;
  provider_charge_id: string | null;
  error: string | null;
  attempts: number;
  updated_at: string;
}
export interface Posting {
  status: string;
  charges: number;
  posted: number;
  pending: number;
  failed: number;
  reversed: number;
  lines: Line[];
}
export interface UnitBill {
  unit_id: string;
  tenant_name: string;
  total_charge: number;
  invoice_number?: string | null;
}
export interface Calculation {
  id: string;
  billing_period_end: string;
  due_date?: string | null;
  unit_bills: UnitBill[];
  posting: Posting;
}

/** README example 1's units under the PMS ids u1..u4 of the fake's units. */
export const PMS_UNITS = EXAMPLE_UNITS.map((u, i) => ({ ...u, unit_id: `u${i + 1}` }));
