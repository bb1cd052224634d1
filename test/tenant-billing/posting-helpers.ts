/** What the posting tests share: the API key of the fake PMS ledger, the answers' shapes, the units, a linked calculation. */
import type { TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { fakeUnit } from '../helpers/fake-pms';
import type { FakePmsLedger } from '../helpers/fake-pms-ledger';
import { linkPms } from '../helpers/pms-link';
import { as, calculateBody, createConfig, createProperty, EXAMPLE_UNITS } from './helpers';

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

/**
 * A property of `token`'s user (Maple Court) linked to PMS property `pmsProperty` on connection `conn`, whose units
 * u1..u4 (or as many as `units`) the fake serves and the link imported, with an active sqft configuration, and a
 * calculation of January 2026's $1,000.00 water bill over `units` (README example 1's, by PMS id, unless given).
 */
export async function linkedCalculation(
  t: TestApp,
  token: string,
  fake: FakePmsLedger,
  link: { conn: string; pmsProperty: string },
  units: unknown[] = PMS_UNITS,
  overrides: Record<string, unknown> = {},
) {
  const { conn, pmsProperty } = link;
  const property = await createProperty(t, token, {
    name: 'Maple Court',
    address: '12 Maple St',
    city: 'Ann Arbor',
    state: 'MI',
    zip_code: '48104',
  });
  fake.setUnits(
    conn,
    pmsProperty,
    Array.from({ length: Math.max(4, units.length) }, (_, i) => fakeUnit(i + 1, pmsProperty)),
  );
  await linkPms(t, token, property.id, { connection_id: conn, pms_property_id: pmsProperty }, fake);
  await eventually(async () => {
    expect((await as(t, token).get(`/pm/properties/${property.id}/pms`).expect(200)).body.last_synced_at).not.toBeNull();
  });
  const config = await createConfig(t, token, property.id);
  const calculation = await as(t, token)
    .post('/billing/calculate-rubs', calculateBody(property.id, config.id, { units, ...overrides }))
    .expect(200);
  return { propertyId: property.id, id: calculation.body.id as string, conn, pmsProperty };
}
