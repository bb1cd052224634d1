/**
 * Migration 0029 (meters) on a database that holds bills from before meters: every bill gets its
 * property's default meter of its type; bills of one type whose periods overlapped (allowed then,
 * only identical periods were refused) move to further meters, so none of one meter overlap.
 */
import type { PGlite } from '@electric-sql/pglite';
import { databaseBefore } from './helpers';

describe('migration 0029: meters for the bills already stored', () => {
  let client: PGlite;
  beforeAll(async () => {
    const db = await databaseBefore('0029_meters');
    client = db.client;
    await client.exec(`
      insert into users (id, email, password_hash, full_name) values ('u1', 'a@example.com', 'x', 'A');
      insert into properties (id, owner_id, name, address, city, state, zip_code, property_type)
        values ('p1', 'u1', 'P', '1 Main St', 'Gladstone', 'MI', '49837', 'commercial'),
               ('p2', 'u1', 'Q', '2 Main St', 'Gladstone', 'MI', '49837', 'commercial');
      insert into utility_bills (id, property_id, utility_type, period_start, period_end, amount, usage_kwh, created_at) values
        ('jan', 'p1', 'electric', '2026-01-01', '2026-01-31', 100, 1000, '2026-02-05'),
        ('mid', 'p1', 'electric', '2026-01-15', '2026-02-14', 50, 400, '2026-02-20'),
        ('feb', 'p1', 'electric', '2026-02-01', '2026-02-28', 90, 900, '2026-03-05'),
        ('late', 'p1', 'electric', '2026-01-20', '2026-02-10', 10, 100, '2026-03-06'),
        ('gas', 'p1', 'gas', '2026-01-01', '2026-01-31', 70, 2000, '2026-02-05'),
        ('water', 'p2', 'water', '2026-01-01', '2026-03-31', 300, null, '2026-04-02');`);
    await db.rest();
  });
  afterAll(() => client.close());

  it('gives each bill a meter; overlapping bills of a type go to further meters, earliest period first', async () => {
    const { rows: meters } = await client.query<Record<string, unknown>>(
      'select id, property_id, utility_type, unit, name, is_default from meters order by property_id, utility_type, created_at, name',
    );
    expect(meters.map(({ id: _id, ...m }) => m)).toEqual([
      { property_id: 'p1', utility_type: 'electric', unit: 'kWh', name: 'Electric meter', is_default: true },
      { property_id: 'p1', utility_type: 'electric', unit: 'kWh', name: 'Electric meter 2', is_default: false },
      { property_id: 'p1', utility_type: 'electric', unit: 'kWh', name: 'Electric meter 3', is_default: false },
      { property_id: 'p1', utility_type: 'gas', unit: 'therms', name: 'Gas meter', is_default: true },
      { property_id: 'p2', utility_type: 'water', unit: 'kgal', name: 'Water meter', is_default: true },
    ]);
    const { rows: bills } = await client.query<Record<string, unknown>>(`select b.id, m.name as meter, b.unit, b.usage::float8 as usage,
      b.usage_kwh::float8 as usage_kwh from utility_bills b join meters m on m.id = b.meter_id order by b.id`);
    // jan stays; mid overlaps jan (meter 2); feb overlaps mid only, which moved (stays); late overlaps jan and mid (meter 3).
    expect(bills).toEqual([
      { id: 'feb', meter: 'Electric meter', unit: 'kWh', usage: 900, usage_kwh: 900 },
      { id: 'gas', meter: 'Gas meter', unit: 'therms', usage: null, usage_kwh: 2000 },
      { id: 'jan', meter: 'Electric meter', unit: 'kWh', usage: 1000, usage_kwh: 1000 },
      { id: 'late', meter: 'Electric meter 3', unit: 'kWh', usage: 100, usage_kwh: 100 },
      { id: 'mid', meter: 'Electric meter 2', unit: 'kWh', usage: 400, usage_kwh: 400 },
      { id: 'water', meter: 'Water meter', unit: 'kgal', usage: null, usage_kwh: null },
    ]);
  });

  it('from then on, two bills of one meter cannot overlap (since 0048, the exclusion constraint utility_bills_no_overlap)', async () => {
    const {
      rows: [jan],
    } = await client.query<{ meter_id: string }>("select meter_id from utility_bills where id = 'jan'");
    await expect(
      client.query(
        `insert into utility_bills (property_id, meter_id, utility_type, unit, period_start, period_end, amount)
      values ('p1', $1, 'electric', 'kWh', '2026-01-31', '2026-01-31', 1)`,
        [jan!.meter_id],
      ),
    ).rejects.toThrow(/violates exclusion constraint "utility_bills_no_overlap"/);
  });
});
