import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createProperty } from './helpers';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/platform/db/errors';

describe('notifications', () => {
  let t: TestApp;
  let now = new Date('2026-03-01T12:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
  });
  afterAll(() => t.stop());

  const tick = () => {
    now = new Date(now.getTime() + 1000);
  };

  it("lists the caller's notifications newest first; unread filter; mark read; others' are 404", async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const property = await createProperty(t, alice.token);
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) {
      tick();
      const n = await t.services.notifications.notify({
        userId: alice.user.id,
        type: 'rubs_change',
        propertyId: property.id,
        message: `Unit ${i} moved out`,
      });
      ids.push(n.id);
    }
    tick();
    await t.services.notifications.notify({ userId: bob.user.id, type: 'rubs_change', message: 'Bob only' });

    const all = await as(t, alice.token).get('/pm/notifications').expect(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, per_page: 20, pages: 1 });
    expect(all.body.items[0]).toEqual({
      id: ids[2],
      type: 'rubs_change',
      property_id: property.id,
      message: 'Unit 3 moved out',
      created_at: '2026-03-01T12:00:03.000Z',
      read_at: null,
    });
    expect(all.body.items.map((n: { id: string }) => n.id)).toEqual([ids[2], ids[1], ids[0]]);

    tick();
    const read = await as(t, alice.token).post(`/pm/notifications/${ids[1]}/read`).expect(200);
    expect(read.body).toMatchObject({ id: ids[1], read_at: '2026-03-01T12:00:05.000Z' });
    tick();
    const again = await as(t, alice.token).post(`/pm/notifications/${ids[1]}/read`).expect(200);
    expect(again.body.read_at).toBe('2026-03-01T12:00:05.000Z');

    const unread = await as(t, alice.token).get('/pm/notifications?unread=true').expect(200);
    expect(unread.body.items.map((n: { id: string }) => n.id)).toEqual([ids[2], ids[0]]);
    expect(unread.body.total).toBe(2);
    expect(await t.services.notifications.countUnread(alice.user.id)).toBe(2);
    const readToo = await as(t, alice.token).get('/pm/notifications?unread=false').expect(200);
    expect(readToo.body.total).toBe(3);
    const page = await as(t, alice.token).get('/pm/notifications?per_page=2&page=2').expect(200);
    expect(page.body).toMatchObject({ total: 3, pages: 2, items: [{ id: ids[0] }] });

    expect((await as(t, bob.token).post(`/pm/notifications/${ids[0]}/read`).expect(404)).body.detail).toBe('Notification not found');
    expect((await as(t, alice.token).post('/pm/notifications/nope/read').expect(404)).body.detail).toBe('Notification not found');
    expect((await as(t, bob.token).get('/pm/notifications').expect(200)).body.items.map((n: { message: string }) => n.message)).toEqual([
      'Bob only',
    ]);
    await as(t, alice.token).get('/pm/notifications?unread=maybe').expect(422);
    await request(t.app).get('/api/v1/pm/notifications').expect(401);
  });

  it("counts each user's unread notifications exactly through inserts, dedupes, reads and deletes", async () => {
    const erin = await registerUser(t);
    const frank = await registerUser(t);
    const property = await createProperty(t, erin.token);
    const db = t.deps.database.db;
    const kept = (userId: string) => t.services.notifications.countUnread(userId);
    const counted = async (userId: string) =>
      rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from notifications where user_id = ${userId} and read_at is null`),
      )[0]!.n;
    expect(await kept(erin.user.id)).toBe(0);

    // One statement: 4 of Erin's (the fifth repeats a dedupe key), 2 of Frank's.
    const note = (userId: string, key: string, propertyId: string | null = null) => ({
      userId,
      type: 'x',
      message: key,
      dedupeKey: key,
      propertyId,
    });
    await t.services.notifications.notifyMany([
      note(erin.user.id, 'a', property.id),
      note(erin.user.id, 'b', property.id),
      note(erin.user.id, 'c'),
      note(erin.user.id, 'd'),
      note(erin.user.id, 'a', property.id),
      note(frank.user.id, 'a'),
      note(frank.user.id, 'b'),
    ]);
    expect([await kept(erin.user.id), await kept(frank.user.id)]).toEqual([4, 2]);
    // The same again adds nothing.
    await t.services.notifications.notifyMany([note(erin.user.id, 'c'), note(frank.user.id, 'b')]);
    expect([await kept(erin.user.id), await kept(frank.user.id)]).toEqual([4, 2]);

    const items = (await as(t, erin.token).get('/pm/notifications?per_page=100').expect(200)).body.items as Array<{
      id: string;
      message: string;
    }>;
    const c = items.find((n) => n.message === 'c')!.id;
    await as(t, erin.token).post(`/pm/notifications/${c}/read`).expect(200);
    await as(t, erin.token).post(`/pm/notifications/${c}/read`).expect(200);
    expect(await kept(erin.user.id)).toBe(3);
    expect((await as(t, erin.token).get('/pm/dashboard/stats').expect(200)).body.alerts_unread).toBe(3);
    // Back to unread, and every notification read at once (updates of many rows).
    await db.execute(sql`update notifications set read_at = null where id = ${c}`);
    expect(await kept(erin.user.id)).toBe(4);
    await db.execute(sql`update notifications set read_at = now() where user_id = ${frank.user.id}`);
    expect(await kept(frank.user.id)).toBe(0);

    // Deleting the property deletes its two notifications.
    await db.execute(sql`delete from properties where id = ${property.id}`);
    expect(await kept(erin.user.id)).toBe(2);
    expect(await kept(erin.user.id)).toBe(await counted(erin.user.id));
    expect((await as(t, erin.token).get('/pm/dashboard/stats').expect(200)).body.alerts_unread).toBe(2);
  });

  it('a dedupe key makes creation idempotent per user', async () => {
    const carol = await registerUser(t);
    const dave = await registerUser(t);
    const first = await t.services.notifications.notify({ userId: carol.user.id, type: 'x', message: 'once', dedupeKey: 'k1' });
    const second = await t.services.notifications.notify({ userId: carol.user.id, type: 'x', message: 'once', dedupeKey: 'k1' });
    expect(second.id).toBe(first.id);
    await t.services.notifications.notify({ userId: dave.user.id, type: 'x', message: 'once', dedupeKey: 'k1' });
    expect((await as(t, carol.token).get('/pm/notifications').expect(200)).body.total).toBe(1);
    expect((await as(t, dave.token).get('/pm/notifications').expect(200)).body.total).toBe(1);
  });
});
