import type { TestApp } from '../helpers/app';
import type { RegisteredTestUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { FakePmsProvider, fakeUnit, type FakeUnit } from '../helpers/fake-pms';
import { createProperty } from '../pm/helpers';
import { createWebhookRepository } from '../../src/modules/webhooks/repository';
import { client, deliver, nextTimestamp, propertyUnits, startLinkedProperty, unitEvent } from './helpers';
import { linkPms } from '../helpers/pms-link';

interface LogItem {
  id: string;
  status: string;
  detail: string | null;
  event: string;
  payload: { data?: { id?: string } };
}

describe('PMS webhook processing', () => {
  let t: TestApp;
  const fake = new FakePmsProvider();
  let alice: RegisteredTestUser;
  let propertyId: string;
  const conn = 'conn-proc';

  beforeAll(async () => {
    ({ t, alice, propertyId } = await startLinkedProperty(fake, {
      conn,
      name: 'Elm Court',
      units: [fakeUnit(1, 'P1'), fakeUnit(2, 'P1')],
    }));
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });

  const units = () => propertyUnits(t, alice.token, propertyId);
  const unit = async (pmsId: string) => (await units()).find((u) => u.pms_unit_id === pmsId);
  /** Delivers the body and waits until the event is processed; returns its log entry. */
  const processed = async (body: object, owner = alice) => {
    const res = await deliver(t, body).expect(200);
    expect(res.body.status).toBe('accepted');
    let entry: LogItem | undefined;
    await eventually(async () => {
      const logs = (await client(t, owner.token).logs('?limit=500').expect(200)).body.items as LogItem[];
      entry = logs.find((l) => l.id === res.body.id);
      expect(entry?.status).not.toBe('pending');
      expect(entry).toBeDefined();
    });
    return entry!;
  };
  const notifications = async () =>
    (await client(t, alice.token).get('/pm/notifications?per_page=100').expect(200)).body.items as Array<{
      type: string;
      message: string;
      property_id: string | null;
    }>;

  it('data.update of a unit updates it and notifies the owner when a RUBS factor moves', async () => {
    const before = (await notifications()).length;
    const entry = await processed(unitEvent(conn, fakeUnit(1, 'P1', { status: 'vacant', current_lease: null })));
    expect(entry).toMatchObject({
      status: 'success',
      detail: 'unit 101 updated (RUBS factors moved: status occupied -> vacant, occupants 2 -> none)',
    });
    expect(await unit('u1')).toMatchObject({ status: 'vacant', resident_name: null, occupant_count: null });
    const added = (await notifications()).slice(0, (await notifications()).length - before);
    expect(added).toEqual([
      expect.objectContaining({
        type: 'rubs_factor_changed',
        property_id: propertyId,
        message: 'Unit 101 of Elm Court: status occupied -> vacant, occupants 2 -> none. RUBS shares change from the next calculation.',
      }),
    ]);
  });

  it('a change that moves no RUBS factor notifies nobody', async () => {
    const before = (await notifications()).length;
    const entry = await processed(unitEvent(conn, fakeUnit(2, 'P1', { bedrooms: 5 })));
    expect(entry).toMatchObject({ status: 'success', detail: 'unit 102 updated' });
    expect((await unit('u2'))!.bedrooms).toBe(5);
    expect(await notifications()).toHaveLength(before);
  });

  it('data.new of a unit imports it; unlinked properties and unknown connections are logged ignored', async () => {
    expect(await processed(unitEvent(conn, fakeUnit(30, 'P1'), 'data.new'))).toMatchObject({
      status: 'success',
      detail: 'unit 130 created',
    });
    expect(await unit('u30')).toMatchObject({ unit_number: '130', status: 'occupied' });
    expect(await processed(unitEvent(conn, fakeUnit(31, 'NOT-LINKED'), 'data.new'))).toMatchObject({
      status: 'ignored',
      detail: 'property not linked',
    });
    const res = await deliver(t, unitEvent('conn-nobody', fakeUnit(1, 'P1'))).expect(200);
    expect(res.body.status).toBe('accepted');
    // Nobody's log shows an unregistered connection's events: read the inbox itself.
    await eventually(async () => {
      const row = await createWebhookRepository(t.deps.database.db).findById(res.body.id);
      expect(row).toMatchObject({ status: 'ignored', detail: 'connection not registered' });
    });
  });

  it('the stale-update guard: an update older than the last applied one is ignored; equal times apply in order', async () => {
    const t1 = nextTimestamp();
    const t2 = nextTimestamp();
    await processed(unitEvent(conn, fakeUnit(2, 'P1', { sqft: 900 }), 'data.update', t2));
    expect(await processed(unitEvent(conn, fakeUnit(2, 'P1', { sqft: 700 }), 'data.update', t1))).toMatchObject({
      status: 'ignored',
      detail: 'stale',
    });
    expect((await unit('u2'))!.sqft).toBe(900);
    await processed(unitEvent(conn, fakeUnit(2, 'P1', { sqft: 910 }), 'data.update', t2));
    await processed(unitEvent(conn, fakeUnit(2, 'P1', { sqft: 920 }), 'data.update', t2));
    expect((await unit('u2'))!.sqft).toBe(920);
  });

  it('invalid unit data is logged failed with the reason', async () => {
    const entry = await processed(unitEvent(conn, { ...fakeUnit(2, 'P1'), status: 'gone' } as unknown as FakeUnit));
    expect(entry).toMatchObject({
      status: 'failed',
      detail: "data.status: value is not a valid enumeration member; permitted: 'vacant', 'occupied'",
    });
  });

  it("data.new of an unlinked property is flagged for review to the connection's owner; of a linked one, its units are imported", async () => {
    const entry = await processed({
      event: 'data.new',
      timestamp: nextTimestamp(),
      connection_id: conn,
      resource_type: 'property',
      data: { id: 'P9', name: 'Oak Row' },
    });
    expect(entry).toMatchObject({ status: 'success', detail: 'property not linked: flagged for review' });
    expect((await notifications())[0]).toMatchObject({ type: 'pms_property_review', property_id: null });
    expect((await notifications())[0].message).toMatch(/^New PMS property P9 "Oak Row" on connection conn-proc is not linked/);

    fake.setUnits(conn, 'P1', [fakeUnit(1, 'P1'), fakeUnit(2, 'P1'), fakeUnit(3, 'P1')]);
    const linked = await processed({
      event: 'data.new',
      timestamp: nextTimestamp(),
      connection_id: conn,
      resource_type: 'property',
      data: { id: 'P1' },
    });
    expect(linked).toMatchObject({ status: 'success', detail: 'units import queued' });
    await eventually(async () => expect(await unit('u3')).toBeDefined());
  });

  it("lease events import the property's units again; sync.complete refreshes every linked property of the connection", async () => {
    const other = (await createProperty(t, alice.token, { name: 'Birch' })).id;
    fake.setUnits(conn, 'P2', [fakeUnit(50, 'P2')]);
    await linkPms(t, alice.token, other, { connection_id: conn, pms_property_id: 'P2' }, fake);
    fake.setUnits(conn, 'P1', [fakeUnit(1, 'P1', { unit_number: '1-renamed' })]);
    expect(
      await processed({
        event: 'data.new',
        timestamp: nextTimestamp(),
        connection_id: conn,
        resource_type: 'lease',
        data: { id: 'L1', property_id: 'P1' },
      }),
    ).toMatchObject({ status: 'success', detail: 'units import queued' });
    await eventually(async () => expect((await units()).map((u) => u.unit_number)).toEqual(['1-renamed']));

    fake.setUnits(conn, 'P1', [fakeUnit(1, 'P1'), fakeUnit(4, 'P1')]);
    fake.setUnits(conn, 'P2', [fakeUnit(50, 'P2'), fakeUnit(51, 'P2')]);
    const entry = await processed({
      event: 'sync.complete',
      timestamp: nextTimestamp(),
      connection_id: conn,
      data: { sync_id: 's1', stats: { properties_synced: 2, units_synced: 4, leases_synced: 3, duration_seconds: 2, errors: 0 } },
    });
    expect(entry).toMatchObject({ status: 'success', detail: 'units import queued for 2 linked properties' });
    await eventually(async () => {
      expect((await units()).map((u) => u.pms_unit_id)).toEqual(['u1', 'u4']);
      const birch = (await client(t, alice.token).get(`/pm/properties/${other}/units`).expect(200)).body.items;
      expect(birch.map((u: { pms_unit_id: string }) => u.pms_unit_id)).toEqual(['u50', 'u51']);
    });
  });

  it('every event delivered twice, some out of order by timestamp: the final state is that of the latest event', async () => {
    const times = Array.from({ length: 40 }, () => nextTimestamp());
    const events = times.map((ts, i) =>
      unitEvent(
        conn,
        fakeUnit(60 + (i % 4), 'P1', { sqft: 1000 + i, status: i % 3 ? 'occupied' : 'vacant' }),
        i < 4 ? 'data.new' : 'data.update',
        ts,
      ),
    );
    // Swap neighbours every 5 events: the later timestamp arrives first.
    const order = events.map((_, i) => i);
    for (let i = 0; i + 1 < order.length; i += 5) [order[i], order[i + 1]] = [order[i + 1], order[i]];
    for (const i of order) {
      await deliver(t, events[i]).expect(200);
      await deliver(t, events[i]).expect(200);
    }
    const latest = new Map<string, (typeof events)[number]>();
    for (const e of events) latest.set(e.data.id, e); // events are in timestamp order
    await eventually(async () => {
      for (const [id, e] of latest) {
        expect(await unit(id)).toMatchObject({ sqft: e.data.sqft, status: e.data.status });
      }
    });
  });
  it('bodies the database cannot take, delivered at the same moment as valid events, fail alone: the valid ones are accepted and applied', async () => {
    const valid = [70, 71, 72, 73, 74, 75].map((n) => unitEvent(conn, fakeUnit(n, 'P1'), 'data.new'));
    const bad = [
      JSON.stringify({ ...unitEvent(conn, fakeUnit(78, 'P1'), 'data.new'), timestamp: '0000-01-01T00:00:00Z' }),
      JSON.stringify(unitEvent(`${conn}\ud800`, fakeUnit(79, 'P1'), 'data.new')), // the escape \ud800 in the raw body
      JSON.stringify({ ...unitEvent(conn, fakeUnit(77, 'P1'), 'data.new'), timestamp: '2026-01-01T00:00' }),
    ];
    // Interleaved, all in flight at once: the receiver writes concurrent arrivals in one commit.
    const bodies = [valid[0], valid[1], bad[0], valid[2], bad[1], valid[3], valid[4], bad[2], valid[5]];
    const answers = await Promise.all(bodies.map((b) => deliver(t, b)));
    const validAnswers = answers.filter((_, i) => !(typeof bodies[i] === 'string'));
    const badAnswers = answers.filter((_, i) => typeof bodies[i] === 'string');
    for (const res of validAnswers) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'accepted', id: expect.any(String) });
    }
    expect(badAnswers.map((r) => [r.status, r.body.status, r.body.detail])).toEqual([
      [200, 'failed', 'timestamp: year out of range (0001 to 9999)'],
      [200, 'failed', 'connection_id: must be well-formed Unicode (no lone surrogates)'],
      [200, 'failed', 'timestamp: invalid ISO 8601 date-time, expected YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]'],
    ]);
    await eventually(async () => {
      const logs = (await client(t, alice.token).logs('?limit=500').expect(200)).body.items as LogItem[];
      for (const [i, res] of validAnswers.entries()) {
        expect(logs.find((l) => l.id === res.body.id)).toMatchObject({ status: 'success', detail: `unit ${170 + i} created` });
      }
    });
    expect((await units()).map((u) => u.pms_unit_id)).toEqual(expect.arrayContaining(['u70', 'u71', 'u72', 'u73', 'u74', 'u75']));
    expect(await unit('u77')).toBeUndefined();
    expect(await unit('u78')).toBeUndefined();
  });
});
