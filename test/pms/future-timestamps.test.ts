import { and, eq } from 'drizzle-orm';
import type { TestApp } from '../helpers/app';
import type { RegisteredTestUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { FakePmsProvider, fakeUnit } from '../helpers/fake-pms';
import { client, deliver, propertyUnits, startLinkedProperty, unitEvent } from '../webhooks/helpers';
import { pmsUnits } from '../../src/modules/pms/tables';
import { MAX_FUTURE_SKEW_MS } from '../../src/modules/webhooks/clock-skew';

/**
 * Issue 46 item 4: one signed `data.update` stamped 9999-12-31 made every later update of its
 * unit "stale", and even a full import (sync.complete) kept the frozen values.
 */
describe('PMS event times from the future', () => {
  let t: TestApp;
  const fake = new FakePmsProvider();
  let alice: RegisteredTestUser;
  let propertyId: string;
  const conn = 'conn-future';

  beforeAll(async () => {
    const units = [1, 2, 3, 4].map((i) => fakeUnit(i, 'P1'));
    ({ t, alice, propertyId } = await startLinkedProperty(fake, { conn, name: 'Cedar Court', units }));
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });

  const units = () => propertyUnits(t, alice.token, propertyId);
  const unit = async (pmsId: string) => (await units()).find((u) => u.pms_unit_id === pmsId);
  const logIds = async () =>
    ((await client(t, alice.token).logs('?limit=500').expect(200)).body.items as Array<{ id: string }>).map((l) => l.id);
  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
  /** What a database written before this rule may hold: a unit stamped by a future-dated event. */
  const freeze = (pmsUnitId: string, values: { sqft: number }) =>
    t.deps.database.db
      .update(pmsUnits)
      .set({ ...values, sourceUpdatedAt: new Date('9999-12-31T00:00:00Z') })
      .where(and(eq(pmsUnits.propertyId, propertyId), eq(pmsUnits.pmsUnitId, pmsUnitId)));

  it('a signed event stamped 9999-12-31 is answered 422 with the reason and not stored; the unit goes on taking updates', async () => {
    const before = await logIds();
    const res = await deliver(t, unitEvent(conn, fakeUnit(1, 'P1', { sqft: 5 }), 'data.update', '9999-12-31T00:00:00Z')).expect(422);
    expect(res.body.detail).toMatch(
      /^timestamp: 9999-12-31T00:00:00Z is more than 5 minutes ahead of the time it was received \(.+\); the event is not stored/,
    );
    expect(await logIds()).toEqual(before);

    const now = await deliver(t, unitEvent(conn, fakeUnit(1, 'P1', { sqft: 777 }))).expect(200);
    expect(now.body.status).toBe('accepted');
    await eventually(async () => expect((await unit('u1'))!.sqft).toBe(777));
  });

  it('allows a sender clock up to 5 minutes fast, not more', async () => {
    expect(MAX_FUTURE_SKEW_MS).toBe(5 * 60_000);
    await deliver(t, unitEvent(conn, fakeUnit(5, 'P1', { sqft: 820 }), 'data.new', inFuture(MAX_FUTURE_SKEW_MS - 60_000))).expect(200);
    await eventually(async () => expect((await unit('u5'))?.sqft).toBe(820));
    const res = await deliver(
      t,
      unitEvent(conn, fakeUnit(5, 'P1', { sqft: 830 }), 'data.update', inFuture(MAX_FUTURE_SKEW_MS + 60_000)),
    ).expect(422);
    expect(res.body.errors).toEqual([{ field: 'timestamp', message: res.body.detail }]);
  });

  it('a unit already frozen by a future time takes the next update, and a full import (sync.complete) replaces or removes it', async () => {
    await freeze('u3', { sqft: 3 });
    const update = await deliver(t, unitEvent(conn, fakeUnit(3, 'P1', { sqft: 930 }))).expect(200);
    expect(update.body.status).toBe('accepted');
    await eventually(async () => expect((await unit('u3'))!.sqft).toBe(930));

    // Frozen again, then imported: the provider's values win; a frozen unit it no longer lists is
    // removed. (u5, stamped 4 minutes ahead above, is a believable time: it stays until then.)
    await freeze('u3', { sqft: 3 });
    await freeze('u4', { sqft: 4 });
    fake.setUnits(
      conn,
      'P1',
      [1, 2, 3].map((i) => fakeUnit(i, 'P1', { sqft: 1000 + i })),
    );
    const sync = await deliver(t, {
      event: 'sync.complete',
      timestamp: new Date().toISOString(),
      connection_id: conn,
      data: { sync_id: 's-future', stats: { properties_synced: 1, units_synced: 3, leases_synced: 3, duration_seconds: 1, errors: 0 } },
    }).expect(200);
    expect(sync.body.status).toBe('accepted');
    await eventually(async () => {
      expect((await units()).map((u) => [u.pms_unit_id, u.sqft])).toEqual([
        ['u1', 1001],
        ['u2', 1002],
        ['u3', 1003],
        ['u5', 820],
      ]);
    });
    // And the import's time is a real one again: an update after it applies.
    await deliver(t, unitEvent(conn, fakeUnit(3, 'P1', { sqft: 950 }))).expect(200);
    await eventually(async () => expect((await unit('u3'))!.sqft).toBe(950));
  });
});
