/**
 * Issue 30, month-to-month billing operations through the API: turnover, re-bills and voids,
 * configuration versions and methods per utility, occupancy tables, charge limits and billing
 * fees, and statements a tenant can check (invoice number, due date). Each describe block starts
 * from what a property manager saw fail before.
 */
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, billedProperty, calculateBody, createConfig, createProperty, tickingClock } from './helpers';
import { errorBody } from '../helpers/error-body';

/** The clock of README example 1: 2026-02-03 09:20 UTC. */
const FEBRUARY_3 = Date.UTC(2026, 1, 3, 9, 20);

describe('tenant billing operations (issue 30)', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp({ now: tickingClock(FEBRUARY_3) });
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  const calculate = (token: string, body: unknown) => as(t, token).post('/billing/calculate-rubs', body);
  const FEBRUARY = { billing_period_start: '2026-02-01', billing_period_end: '2026-02-28' };
  const APRIL = { billing_period_start: '2026-04-01', billing_period_end: '2026-04-30' };

  describe('turnover: a unit whose resident changed within the period', () => {
    const units = [
      {
        unit_id: '301',
        tenant_name: '',
        occupancies: [
          { tenant_name: 'Dana Moss', move_out: '2026-04-15' },
          { tenant_name: 'Eli Park', move_in: '2026-04-16' },
        ],
      },
      { unit_id: '302', tenant_name: 'Fay Lund' },
    ];

    it('counts the unit once: the tenant who stayed pays $460.00 of $920.00 under owner_pays (two unit ids made it $306.67)', async () => {
      const p = await billedProperty(t, alice, {
        method: 'unit_count',
        vacancy_policy: 'owner_pays',
        common_area_percent: 0,
        admin_fee_percent: 0,
      });
      // What a manager had to do before: a second unit id for the new resident, counting unit 301 twice.
      const workaround = await calculate(
        alice,
        calculateBody(p.propertyId, p.configId, {
          ...APRIL,
          total_amount: 920,
          units: [
            { unit_id: '301', tenant_name: 'Dana Moss', move_out: '2026-04-15' },
            { unit_id: '301-B', tenant_name: 'Eli Park', move_in: '2026-04-16' },
            { unit_id: '302', tenant_name: 'Fay Lund' },
          ],
        }),
      ).expect(200);
      expect(workaround.body.unit_bills[2].total_charge).toBe(306.66); // Issue 46 replaced per-unit rounding half up with rounding down (never bill more than the bill)

      const res = await calculate(alice, calculateBody(p.propertyId, p.configId, { ...APRIL, total_amount: 920, units })).expect(200);
      expect(
        res.body.unit_bills.map((u: Record<string, unknown>) => [u.unit_id, u.occupancy, u.tenant_name, u.occupied_days, u.total_charge]),
      ).toEqual([
        ['301', 0, 'Dana Moss', 15, 230],
        ['301', 1, 'Eli Park', 15, 230],
        ['302', undefined, 'Fay Lund', 30, 460],
      ]);
      expect(res.body.unit_bills[0]).toMatchObject({ move_in: null, move_out: '2026-04-15' });
      expect(res.body).toMatchObject({ units_billed: 2, units_vacant: 0 });
      expect(res.body.reconciliation).toMatchObject({ billed_to_tenants: 920, owner_absorbs: 0, rounding_difference: 0 });

      // One statement per occupancy with ?occupancy=; the unit alone shows both parts and its total.
      const statement = (q: string) => as(t, alice).get(`/billing/calculations/${res.body.id}/statements/301${q}`);
      // Issue 46 replaced the 422 asking for ?occupancy with one statement of every occupancy's part (statement-turnover.test.ts).
      const unit = (await statement('').expect(200)).body;
      expect(
        unit.occupancies.map((o: { unit: { tenant_name: string; total_charge: number } }) => [o.unit.tenant_name, o.unit.total_charge]),
      ).toEqual([
        ['Dana Moss', 230],
        ['Eli Park', 230],
      ]);
      expect(unit.charges.total_charge).toBe(460);
      const eli = (await statement('?occupancy=1').expect(200)).body;
      expect(eli.unit).toMatchObject({ tenant_name: 'Eli Park', occupancy: 1, total_charge: 230 });
      expect(eli.formula[1]).toBe('Your share = 1 unit x 15 days / 60 unit-days of all units, vacant ones included = 25.00%');
      expect((await statement('?occupancy=2').expect(404)).body).toEqual(errorBody({ detail: 'Occupancy not found in this calculation' }));
      // The CSV: one row per occupancy.
      const csv = (await as(t, alice).get(`/billing/calculations/${res.body.id}/export.csv`).expect(200)).text.trim().split('\r\n');
      expect(csv.slice(1).map((line) => line.split(',').slice(6, 8))).toEqual([
        ['301', 'Dana Moss'],
        ['301', 'Eli Park'],
        ['302', 'Fay Lund'],
      ]);
    });

    it('overlapping occupancies, one that ends before it starts or has no day in the period: 422 naming the unit', async () => {
      const p = await billedProperty(t, alice, { method: 'unit_count' });
      const res = await calculate(
        alice,
        calculateBody(p.propertyId, p.configId, {
          ...APRIL,
          units: [
            {
              unit_id: '301',
              tenant_name: '',
              occupancies: [
                { tenant_name: 'Dana Moss', move_out: '2026-04-15' },
                { tenant_name: 'Eli Park', move_in: '2026-04-10' },
                { tenant_name: 'Gus', move_in: '2026-04-28', move_out: '2026-04-27' },
                { tenant_name: 'Hal', move_in: '2026-05-03' },
              ],
            },
          ],
        }),
      ).expect(422);
      expect(res.body.errors).toEqual([
        { field: 'units.0.occupancies.2.move_out', message: "unit '301': occupancy 2 moves out before it moves in" },
        { field: 'units.0.occupancies.3', message: "unit '301': occupancy 3 has no day in the billing period" },
        { field: 'units.0.occupancies.1', message: "unit '301': occupancies 0 and 1 overlap" },
      ]);
      expect((await as(t, alice).get(`/billing/history/${p.propertyId}`).expect(200)).body.total).toBe(0);
    });
  });

  describe('re-bills and voids', () => {
    it('a calculation overlapping an active one of the same utility supersedes it; other utilities and periods are untouched', async () => {
      const p = await billedProperty(t, alice);
      const first = (await calculate(alice, calculateBody(p.propertyId, p.configId)).expect(200)).body;
      const sewer = (await calculate(alice, calculateBody(p.propertyId, p.configId, { utility_type: 'sewer' })).expect(200)).body;
      const february = (await calculate(alice, calculateBody(p.propertyId, p.configId, FEBRUARY)).expect(200)).body;
      expect([first.status, first.supersedes, sewer.supersedes, february.supersedes]).toEqual(['active', [], [], []]);

      const rebill = (
        await calculate(
          alice,
          calculateBody(p.propertyId, p.configId, {
            billing_period_start: '2026-01-15',
            billing_period_end: '2026-02-14',
            total_amount: 1100,
          }),
        ).expect(200)
      ).body;
      expect(rebill).toMatchObject({ status: 'active', supersedes: [first.id, february.id], superseded_by: null });
      const earlier = (await as(t, alice).get(`/billing/calculations/${first.id}`).expect(200)).body;
      expect(earlier).toMatchObject({ status: 'superseded', superseded_by: rebill.id });
      expect((await as(t, alice).get(`/billing/calculations/${sewer.id}`).expect(200)).body.status).toBe('active');

      const history = (q: string) => as(t, alice).get(`/billing/history/${p.propertyId}${q}`).expect(200);
      expect((await history('')).body.total).toBe(4);
      const active = (await history('?status=active')).body;
      expect(active).toMatchObject({ total: 2, pages: 1 });
      expect(active.items.map((i: { id: string }) => i.id)).toEqual([rebill.id, sewer.id]);
      expect(
        (await history('?status=superseded')).body.items.map((i: { id: string; superseded_by: string }) => [i.id, i.superseded_by]),
      ).toEqual([
        [february.id, rebill.id],
        [first.id, rebill.id],
      ]);
      expect((await as(t, alice).get(`/billing/history/${p.propertyId}?status=paid`).expect(422)).body.errors[0].field).toBe('status');
    });

    it('two re-bills of one period at the same moment: stored one after the other, exactly one stays active', async () => {
      const p = await billedProperty(t, alice);
      const [a, b] = await Promise.all(
        [1, 2].map(
          async (k) => (await calculate(alice, calculateBody(p.propertyId, p.configId, { total_amount: 1000 + k })).expect(200)).body,
        ),
      );
      const [first, second] = a.supersedes.length === 0 ? [a, b] : [b, a];
      expect([first.supersedes, second.supersedes]).toEqual([[], [first.id]]);
      const active = (await as(t, alice).get(`/billing/history/${p.propertyId}?status=active`).expect(200)).body;
      expect(active.items.map((i: { id: string }) => i.id)).toEqual([second.id]);
      // Their invoice numbers do not collide either.
      const numbers = [...first.unit_bills, ...second.unit_bills].map((u: { invoice_number?: string }) => u.invoice_number).filter(Boolean);
      expect(new Set(numbers).size).toBe(6);
    });

    it('void with a reason: status void, kept in the history, not voided twice; a reason is required', async () => {
      const p = await billedProperty(t, alice);
      const calc = (await calculate(alice, calculateBody(p.propertyId, p.configId)).expect(200)).body;
      const voidIt = (token: string, body: unknown) => as(t, token).post(`/billing/calculations/${calc.id}/void`, body);
      expect((await voidIt(alice, { reason: '  ' }).expect(422)).body.errors).toEqual([{ field: 'reason', message: 'reason required' }]);
      expect((await voidIt(bob, { reason: 'mine now' }).expect(404)).body).toEqual(errorBody({ detail: 'Calculation not found' }));
      const voided = (await voidIt(alice, { reason: 'The utility re-issued the bill' }).expect(200)).body;
      expect(voided).toMatchObject({ id: calc.id, status: 'void', void_reason: 'The utility re-issued the bill' });
      expect(Date.parse(voided.voided_at)).toBeGreaterThan(Date.parse(calc.calculated_at));
      expect((await voidIt(alice, { reason: 'again' }).expect(409)).body).toEqual(errorBody({ detail: 'Calculation is already void' }));
      const items = (await as(t, alice).get(`/billing/history/${p.propertyId}?status=void`).expect(200)).body.items;
      expect(items.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([[calc.id, 'void']]);
      // A void calculation is superseded by nothing: a new one of the period supersedes no one.
      expect((await calculate(alice, calculateBody(p.propertyId, p.configId)).expect(200)).body.supersedes).toEqual([]);
    });
  });

  describe('configurations that change with the building', () => {
    it('PATCH makes a new version; calculations keep the version they used; every version is listed', async () => {
      const p = await billedProperty(t, alice);
      const before = (await calculate(alice, calculateBody(p.propertyId, p.configId)).expect(200)).body;
      expect(before.billing_config_version).toBe(1);
      const patched = (await as(t, alice).patch(`/billing/config/${p.configId}`, { admin_fee_percent: 3, billing_fee: 2.5 }).expect(200))
        .body;
      expect(patched).toMatchObject({ id: p.configId, version: 2, admin_fee_percent: 3, billing_fee: 2.5, common_area_percent: 10 });
      expect(Date.parse(patched.updated_at)).toBeGreaterThan(Date.parse(patched.created_at));
      // The same terms again: no new version.
      expect((await as(t, alice).patch(`/billing/config/${p.configId}`, { admin_fee_percent: 3 }).expect(200)).body.version).toBe(2);

      const after = (await calculate(alice, calculateBody(p.propertyId, p.configId, FEBRUARY)).expect(200)).body;
      expect(after).toMatchObject({ billing_config_version: 2, admin_fee_rate: 0.03, billing_fee: 2.5 });
      // 101: $450.00 + 3 % ($13.50) + $2.50; the vacant unit pays no fee.
      expect(after.unit_bills[0]).toMatchObject({ base_charge: 450, admin_fee: 13.5, billing_fee: 2.5, total_charge: 466 });
      expect(after.unit_bills[3]).toMatchObject({ billing_fee: 0, total_charge: 0 });
      // Fees rounded one by one: $13.50 + $10.125 -> $10.13 + $3.375 -> $3.38.
      expect(after.reconciliation).toMatchObject({ billing_fees: 7.5, admin_fees: 27.01 });
      expect((await as(t, alice).get(`/billing/calculations/${before.id}`).expect(200)).body).toMatchObject({
        billing_config_version: 1,
        admin_fee_rate: 0.05,
      });
      const history = (await as(t, alice).get(`/billing/history/${p.propertyId}`).expect(200)).body.items;
      expect(history.map((i: { billing_config_version: number }) => i.billing_config_version)).toEqual([2, 1]);

      const page = (await as(t, alice).get(`/billing/config/${p.configId}/versions`).expect(200)).body;
      expect(page).toMatchObject({ total: 2, page: 1, per_page: 20, pages: 1 });
      const versions = page.items;
      expect((await as(t, alice).get(`/billing/config/${p.configId}/versions?per_page=1&page=2`).expect(200)).body.items).toEqual([
        versions[1],
      ]);
      expect(versions.map((v: { version: number; admin_fee_percent: number }) => [v.version, v.admin_fee_percent])).toEqual([
        [2, 3],
        [1, 5],
      ]);
      expect(versions[0]).toEqual(patched);
      expect(Object.keys(versions[1])).toEqual(Object.keys(patched)); // the documented key order, not jsonb's
      await as(t, bob).patch(`/billing/config/${p.configId}`, { billing_day: 5 }).expect(404);
      await as(t, bob).get(`/billing/config/${p.configId}/versions`).expect(404);
      expect((await as(t, alice).patch(`/billing/config/${p.configId}`, {}).expect(422)).body.detail).toBe(
        'at least one field to change is required',
      );
    });

    it('is_active false deactivates; a second active configuration is refused on PATCH as on create', async () => {
      const p = await billedProperty(t, alice);
      await as(t, alice).patch(`/billing/config/${p.configId}`, { is_active: false }).expect(200);
      expect((await calculate(alice, calculateBody(p.propertyId, p.configId)).expect(400)).body).toEqual(
        errorBody({ detail: 'Billing config is not active' }),
      );
      const second = await createConfig(t, alice, p.propertyId);
      expect((await as(t, alice).patch(`/billing/config/${p.configId}`, { is_active: true }).expect(400)).body).toEqual(
        errorBody({ detail: 'Active billing config already exists for this property' }),
      );
      expect(
        (await as(t, alice).get(`/billing/config/${p.propertyId}`).expect(200)).body.map((c: { id: string; is_active: boolean }) => [
          c.id,
          c.is_active,
        ]),
      ).toEqual([
        [second.id, true],
        [p.configId, false],
      ]);
    });

    it('a method per utility type: water by occupants while trash is split per unit', async () => {
      const property = await createProperty(t, alice);
      const config = await createConfig(t, alice, property.id, {
        method: 'sqft',
        utility_types: ['water', 'trash', 'electric'],
        common_area_percent: 0,
        admin_fee_percent: 0,
        methods_by_utility: { water: 'occupant_count', trash: 'unit_count' },
      });
      expect(config.methods_by_utility).toEqual({ water: 'occupant_count', trash: 'unit_count' });
      const units = [
        { unit_id: 'A', tenant_name: 'a', sqft: 900, occupant_count: 3 },
        { unit_id: 'B', tenant_name: 'b', sqft: 300, occupant_count: 1 },
      ];
      const bill = async (utility: string) =>
        (await calculate(alice, calculateBody(property.id, config.id, { utility_type: utility, total_amount: 120, units })).expect(200))
          .body;
      const [water, trash, electric] = [await bill('water'), await bill('trash'), await bill('electric')];
      expect([water.method, trash.method, electric.method]).toEqual(['occupant_count', 'unit_count', 'sqft']);
      expect(water.unit_bills.map((u: { base_charge: number }) => u.base_charge)).toEqual([90, 30]);
      expect(trash.unit_bills.map((u: { base_charge: number }) => u.base_charge)).toEqual([60, 60]);
      expect(electric.unit_bills.map((u: { base_charge: number }) => u.base_charge)).toEqual([90, 30]);
      const bad = await as(t, alice)
        .patch(`/billing/config/${config.id}`, { methods_by_utility: { gas: 'sqft' } })
        .expect(422);
      expect(bad.body).toEqual(
        errorBody({
          detail: 'methods_by_utility names gas, which utility_types does not bill',
          errors: [{ field: 'methods_by_utility', message: 'methods_by_utility names gas, which utility_types does not bill' }],
        }),
      );
    });
  });

  describe('how billing companies allocate', () => {
    it('an occupancy factor table: an occupied unit with 0 occupants counts as 1 person instead of paying $0', async () => {
      const p = await billedProperty(t, alice, {
        method: 'occupant_count',
        common_area_percent: 0,
        admin_fee_percent: 0,
        occupant_factors: { 1: 1, 2: 1.6, 3: 2, 4: 2.3 },
      });
      const units = [
        { unit_id: 'A', tenant_name: 'No one registered', occupant_count: 0 },
        { unit_id: 'B', tenant_name: 'Two', occupant_count: 2 },
        { unit_id: 'C', tenant_name: 'Five', occupant_count: 5 },
      ];
      const res = (await calculate(alice, calculateBody(p.propertyId, p.configId, { total_amount: 600, units })).expect(200)).body;
      expect(res.unit_bills.map((u: Record<string, unknown>) => [u.occupant_count, u.occupant_factor, u.base_charge])).toEqual([
        // Issue 46 replaced per-unit rounding half up with rounding down (never bill more than the bill)
        [0, 1, 122.44],
        [2, 1.6, 195.91],
        [5, 2.3, 281.63],
      ]);
      const statement = (await as(t, alice).get(`/billing/calculations/${res.id}/statements/B`).expect(200)).body;
      expect(statement.share.factors[0]).toMatchObject({ value: 2, occupancy_factor: { occupants: 2, factor: 1.6 }, total: 4.9 });
      expect(statement.formula[1]).toBe(
        'Your share = occupancy factor 1.6 (2 occupants) / 4.9 in occupancy factors of the occupied units = 32.65%',
      );
    });

    it('max_charge and min_charge: the owner takes the difference, reported in reconciliation and on the statement', async () => {
      const p = await billedProperty(t, alice, { common_area_percent: 0, admin_fee_percent: 0, max_charge: 400, min_charge: 120 });
      const units = [
        { unit_id: 'A', tenant_name: 'a', sqft: 2000 },
        { unit_id: 'B', tenant_name: 'b', sqft: 1000 },
        { unit_id: 'C', tenant_name: 'c', sqft: 600 },
        { unit_id: 'D', tenant_name: 'd', sqft: 400 },
      ];
      const res = (await calculate(alice, calculateBody(p.propertyId, p.configId, { units })).expect(200)).body;
      expect(res.unit_bills.map((u: { base_charge: number }) => u.base_charge)).toEqual([400, 250, 150, 120]);
      expect(res.unit_bills[0].charge_limit).toEqual({ limit: 'max_charge', share_charge: 500 });
      expect(res.unit_bills[1].charge_limit).toBeUndefined();
      expect(res.reconciliation).toMatchObject({
        billed_to_tenants: 920,
        owner_absorbs: 80,
        max_charge_absorbed: 100,
        min_charge_added: 20,
        rounding_difference: 0,
      });
      const a = (await as(t, alice).get(`/billing/calculations/${res.id}/statements/A`).expect(200)).body;
      expect(a.charges).toMatchObject({ share_charge: 500, charge_limit: 'max_charge', base_charge: 400 });
      expect(a.formula[2]).toBe(
        'Base charge = $1,000.00 x 2,000 / 4,000 = $500.00, capped at the maximum charge of $400.00: $400.00 (the owner pays the rest)',
      );
    });

    it('bad terms: max below min, a negative fee, a table with a gap or that decreases: 422', async () => {
      const property = await createProperty(t, alice);
      const refuse = async (overrides: Record<string, unknown>) =>
        (
          await as(t, alice)
            .post('/billing/config', {
              property_id: property.id,
              method: 'occupant_count',
              utility_types: ['water'],
              ...overrides,
            })
            .expect(422)
        ).body.errors[0];
      expect(await refuse({ max_charge: 10, min_charge: 20 })).toEqual({
        field: 'max_charge',
        message: 'max_charge must not be below min_charge',
      });
      expect(await refuse({ billing_fee: -1 })).toEqual({ field: 'billing_fee', message: 'billing_fee must be between 0 and 1000' });
      expect(await refuse({ occupant_factors: { 1: 1, 3: 2 } })).toEqual({
        field: 'occupant_factors',
        message: 'occupant_factors must have a row for every head count from 0 or 1 to the largest, with no gap',
      });
      expect(await refuse({ occupant_factors: { 1: 1, 2: 0.9 } })).toEqual({
        field: 'occupant_factors',
        message: 'occupant_factors must not decrease: 2 occupants have a smaller factor than 1',
      });
      expect(await refuse({ occupant_factors: { x: 1 } })).toEqual({
        field: 'occupant_factors.x',
        message: 'occupant_factors keys are head counts from 0 to 99',
      });
      const created = await createConfig(t, alice, property.id, { method: 'sqft', min_charge: 20 });
      expect((await as(t, alice).patch(`/billing/config/${created.id}`, { max_charge: 10 }).expect(422)).body.detail).toBe(
        'max_charge must not be below min_charge',
      );
    });
  });

  describe('statements a tenant can check', () => {
    it('an invoice number unique per property, a due date from billing_day, whole factors, on one printed page', async () => {
      const p = await billedProperty(t, alice, { billing_day: 15 });
      const other = await billedProperty(t, alice);
      const first = (await calculate(alice, calculateBody(p.propertyId, p.configId)).expect(200)).body;
      const second = (await calculate(alice, calculateBody(p.propertyId, p.configId, { utility_type: 'sewer' })).expect(200)).body;
      const elsewhere = (await calculate(alice, calculateBody(other.propertyId, other.configId)).expect(200)).body;
      // Billed lines only: vacant unit 104 bills nothing and has no invoice.
      expect(first.unit_bills.map((u: { invoice_number: string }) => u.invoice_number)).toEqual([
        'INV-000001',
        'INV-000002',
        'INV-000003',
        undefined,
      ]);
      expect(second.unit_bills.map((u: { invoice_number: string }) => u.invoice_number)).toEqual([
        'INV-000004',
        'INV-000005',
        'INV-000006',
        undefined,
      ]);
      expect(elsewhere.unit_bills[0].invoice_number).toBe('INV-000001');
      // January's bill, calculated on February 3: due on the next 15th.
      expect(first.due_date).toBe('2026-02-15');
      expect(elsewhere.due_date).toBe('2026-03-01');

      const statement = (await as(t, alice).get(`/billing/calculations/${second.id}/statements/102`).expect(200)).body;
      expect(statement).toMatchObject({ invoice_number: 'INV-000005', due_date: '2026-02-15' });
      const html = (await as(t, alice).get(`/billing/calculations/${second.id}/statements/102`).set('Accept', 'text/html').expect(200))
        .text;
      expect(html).toContain('Invoice INV-000005');
      expect(html).toContain('Due 2026-02-15');
      expect(html).toContain('@page{size:letter;margin:12mm}');
      expect(html).not.toMatch(/\d\.\d{3,} sqft/);
    });
  });
});
