import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/platform/db/errors';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedTariffs } from '../helpers/tariffs';
import { registerUser, type RegisteredTestUser } from '../helpers/users';
import { as, createPortfolio, createProperty, GLADSTONE } from '../pm/helpers';

/** The tests' clock: the current UTC month is 2026-11. */
export const NOW = new Date('2026-11-15T12:00:00.000Z');

/** An app at NOW with the Gladstone tariffs C1, C3 (non-city) and SP1; Alice, with her portfolio Midwest, and Bob. */
export async function aliceMidwestAndBob(): Promise<{ t: TestApp; alice: RegisteredTestUser; bob: RegisteredTestUser; midwest: string }> {
  const t = await createTestApp({ now: () => NOW });
  await seedTariffs(t.deps.database, [GLADSTONE.C1, GLADSTONE.C3_NON_CITY, GLADSTONE.SP1]);
  const alice = await registerUser(t);
  const bob = await registerUser(t);
  const midwest = (await createPortfolio(t, alice.token, 'Midwest')).id;
  return { t, alice, bob, midwest };
}

/** Posts a bill and fails loudly unless it is stored. */
export async function postBill(
  t: TestApp,
  token: string,
  propertyId: string,
  bill: {
    period_start: string;
    period_end: string;
    amount: number;
    usage_kwh?: number;
    usage?: number;
    unit?: string;
    utility_type?: string;
    meter_id?: string;
    is_estimated?: boolean;
  },
): Promise<void> {
  const res = await as(t, token).post(`/pm/properties/${propertyId}/bills`, { utility_type: 'electric', ...bill });
  if (res.status !== 201) throw new Error(`bill failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Monthly whole-month bills, `amounts[i]` for month `firstMonth` + i (YYYY-MM). */
export async function postMonthlyBills(
  t: TestApp,
  token: string,
  propertyId: string,
  firstMonth: string,
  amounts: number[],
  kwh?: number[],
): Promise<void> {
  let y = Number(firstMonth.slice(0, 4));
  let m = Number(firstMonth.slice(5, 7));
  for (let i = 0; i < amounts.length; i++) {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const mm = String(m).padStart(2, '0');
    await postBill(t, token, propertyId, {
      period_start: `${y}-${mm}-01`,
      period_end: `${y}-${mm}-${last}`,
      amount: amounts[i]!,
      usage_kwh: kwh?.[i],
    });
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
}

/** The owner's data version as the triggers keep it (0 when none). */
export async function dataVersion(t: TestApp, ownerId: string): Promise<number> {
  const result = await t.deps.database.db.execute(sql`select version::int as v from owner_data_versions where owner_id = ${ownerId}`);
  return rowsOf<{ v: number }>(result)[0]?.v ?? 0;
}

/**
 * The due-diligence README example's neighbours at Jemez Pueblo, NM (ZIP 87024), owned by `token`:
 * residential properties of 11, 12, 24, 36 and 37 units and a 24-unit commercial one. The
 * comparables of a 24-unit residential property are those of 12 to 36 units of its type: three.
 */
export async function createJemezNeighbours(t: TestApp, token: string): Promise<void> {
  for (const [units, type] of [
    [11, 'residential'],
    [12, 'residential'],
    [24, 'residential'],
    [36, 'residential'],
    [37, 'residential'],
    [24, 'commercial'],
  ] as const) {
    await createProperty(t, token, { state: 'NM', city: 'Jemez Pueblo', zip_code: '87024', unit_count: units, property_type: type });
  }
}
