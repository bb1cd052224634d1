/**
 * Migration 0048 on a database with bills and notifications: the overlap rule of a meter's bills
 * moves from the statement triggers of 0032 to the exclusion constraint utility_bills_no_overlap
 * (the bills stored before, which the triggers kept apart, stay as they are); the unread counter of
 * 0039-0041 and its triggers go, the notifications stay.
 */
import type { PGlite } from '@electric-sql/pglite';
import { databaseBefore } from './helpers';

describe('migration 0048: constraints, not triggers', () => {
  let client: PGlite;
  beforeAll(async () => {
    const db = await databaseBefore('0048_constraints_not_triggers');
    client = db.client;
    await client.exec(`
      insert into users (id, email, password_hash, full_name) values ('u1', 'a@example.com', 'x', 'A');
      insert into properties (id, owner_id, name, address, city, state, zip_code, property_type)
        values ('p1', 'u1', 'P', '1 Main St', 'Gladstone', 'MI', '49837', 'commercial');
      insert into meters (id, property_id, utility_type, unit, name, is_default) values
        ('m1', 'p1', 'electric', 'kWh', 'Electric meter', true), ('m2', 'p1', 'electric', 'kWh', 'Electric meter 2', false);
      insert into utility_bills (id, property_id, meter_id, utility_type, unit, period_start, period_end, amount) values
        ('jan', 'p1', 'm1', 'electric', 'kWh', '2026-01-01', '2026-01-31', 100),
        ('feb', 'p1', 'm1', 'electric', 'kWh', '2026-02-01', '2026-02-28', 90),
        ('jan2', 'p1', 'm2', 'electric', 'kWh', '2026-01-15', '2026-02-14', 50);
      insert into notifications (id, user_id, type, message, read_at) values
        ('n1', 'u1', 'x', 'one', null), ('n2', 'u1', 'x', 'two', now()), ('n3', 'u1', 'x', 'three', null);`);
    await db.rest();
  });
  afterAll(() => client.close());

  const insert = (id: string, meter: string, start: string, end: string) =>
    client.query(
      `insert into utility_bills
    (id, property_id, meter_id, utility_type, unit, period_start, period_end, amount) values ($1, 'p1', $2, 'electric', 'kWh', $3, $4, 1)`,
      [id, meter, start, end],
    );

  it('keeps the stored bills, and refuses an overlap by the constraint, the triggers gone', async () => {
    const { rows } = await client.query<{ id: string }>('select id from utility_bills order by id');
    expect(rows.map((r) => r.id)).toEqual(['feb', 'jan', 'jan2']);
    // One shared day (both ends are billed days) is an overlap; an identical period too.
    await expect(insert('x1', 'm1', '2026-01-31', '2026-01-31')).rejects.toThrow(
      /violates exclusion constraint "utility_bills_no_overlap"/,
    );
    await expect(insert('x2', 'm1', '2026-02-01', '2026-02-28')).rejects.toThrow(
      /violates exclusion constraint "utility_bills_no_overlap"/,
    );
    await expect(client.query("update utility_bills set period_end = '2026-02-01' where id = 'jan'")).rejects.toThrow(
      /violates exclusion constraint "utility_bills_no_overlap"/,
    );
    // The next day, and another meter, are not.
    await insert('mar', 'm1', '2026-03-01', '2026-03-31');
    await insert('jan3', 'm2', '2026-01-01', '2026-01-14');
    const { rows: triggers } = await client.query("select tgname from pg_trigger where tgname like 'utility_bills_no_overlap%'");
    expect(triggers).toEqual([]);
  });

  it('drops the unread counter and its triggers; the notifications stay', async () => {
    const { rows: counter } = await client.query("select to_regclass('notification_unread_counts') as t");
    expect(counter).toEqual([{ t: null }]);
    const { rows: triggers } = await client.query("select tgname from pg_trigger where tgname like 'notifications_unread%'");
    expect(triggers).toEqual([]);
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from notifications where user_id = 'u1' and read_at is null",
    );
    expect(rows).toEqual([{ n: 2 }]);
  });
});
