/**
 * Who a PMS connection belongs to (issue 46, item 3): the account the provider says authorised it
 * (a link session started here, completed at the provider, which reports the connection with the
 * session's token as its `reference`), never the first account that sends its id.
 */
import crypto from 'node:crypto';
import request from 'supertest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser, type RegisteredTestUser } from '../helpers/users';
import { eventually, waitUntil } from '../helpers/eventually';
import { FakePmsProvider, fakeUnit } from '../helpers/fake-pms';
import { bindConnectionDirectly, linkPms, startLinkSession, type PmsLinkBody } from '../helpers/pms-link';
import { as, createProperty } from '../pm/helpers';
import { configBody, EXAMPLE_UNITS } from '../tenant-billing/helpers';
import { SECRET, client, deliver, unitEvent } from '../webhooks/helpers';
import { createWebhookRepository } from '../../src/modules/webhooks/repository';
import { pmsConnections, pmsLinkSessions } from '../../src/modules/pms/tables';
import { errorBody } from '../helpers/error-body';

const NOT_AUTHORISED = errorBody({
  detail:
    'This PMS connection was not authorised by this account at the provider: start a link session ' +
    '(POST /api/v1/pm/pms/link-sessions), complete it at the provider with its link_token, then link again',
});
const TAKEN = errorBody({ detail: 'This PMS connection belongs to another account' });
const NO_PMS = errorBody({ detail: 'No PMS integration configured for this property' });

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

describe('binding a PMS connection through the provider', () => {
  const fake = new FakePmsProvider();
  let t: TestApp;
  let clockOffset = 0;

  beforeAll(async () => {
    const url = await fake.start();
    t = await createTestApp({
      jobs: true,
      now: () => new Date(Date.now() + clockOffset),
      env: { PMS_API_URL: url, PMS_API_KEY: 'provider-key', PMS_WEBHOOK_SECRET: SECRET },
    });
  });
  afterAll(async () => {
    await t.stop();
    await fake.stop();
  });
  beforeEach(() => {
    fake.behaviour = undefined;
    clockOffset = 0;
  });

  const put = (user: RegisteredTestUser, propertyId: string, body: PmsLinkBody) =>
    client(t, user.token).put(`/pm/properties/${propertyId}/pms`, body);
  const owner = async (connectionId: string) =>
    (await t.deps.database.db.select().from(pmsConnections).where(eq(pmsConnections.connectionId, connectionId)))[0]?.ownerId ?? null;
  const logsOf = async (user: RegisteredTestUser) =>
    (await client(t, user.token).logs('?limit=500').expect(200)).body.items as Array<{ id: string; connection_id: string }>;

  it('starts a link session: a random token, shown once, stored as its SHA-256, valid one hour', async () => {
    const alice = await registerUser(t);
    const res = await request(t.app).post('/api/v1/pm/pms/link-sessions').set('Authorization', `Bearer ${alice.token}`).expect(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      id: expect.any(String),
      link_token: expect.stringMatching(/^pmslink_[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    const [row] = await t.deps.database.db.select().from(pmsLinkSessions).where(eq(pmsLinkSessions.id, res.body.id));
    expect(row).toMatchObject({ ownerId: alice.user.id, tokenHash: sha256(res.body.link_token), usedAt: null, connectionId: null });
    expect(Object.values(row).map(String)).not.toContain(res.body.link_token);
    expect(Date.parse(res.body.expires_at) - row.createdAt.getTime()).toBe(3_600_000);
    const again = await startLinkSession(t, alice.token);
    expect(again.link_token).not.toBe(res.body.link_token);
    await request(t.app).post('/api/v1/pm/pms/link-sessions').expect(401);
  });

  it("an attacker sending a victim's connection id gets 403 and nothing of it; the victim links and is never locked out", async () => {
    const victim = await registerUser(t);
    const mallory = await registerUser(t);
    const victimProperty = (await createProperty(t, victim.token)).id;
    const malloryProperty = (await createProperty(t, mallory.token)).id;
    const link = { connection_id: 'conn-victim', pms_property_id: 'VP' };
    fake.setUnits('conn-victim', 'VP', [fakeUnit(1, 'VP'), fakeUnit(2, 'VP')]);
    // The victim completed a link session at the provider; the connection id itself is no secret.
    const session = await startLinkSession(t, victim.token);
    fake.authorize('conn-victim', session.link_token);

    // Mallory sends it first: without a session, then with one of her own.
    expect((await put(mallory, malloryProperty, link).expect(403)).body).toEqual(NOT_AUTHORISED);
    await startLinkSession(t, mallory.token);
    expect((await put(mallory, malloryProperty, link).expect(403)).body).toEqual(NOT_AUTHORISED);
    expect(await owner('conn-victim')).toBeNull();
    expect(
      fake.requests.filter((r) => r.path === '/v1/connections/conn-victim').every((r) => r.authorization === 'Bearer provider-key'),
    ).toBe(true);

    // Nothing of the connection is Mallory's: no link, no units, no calculation from it, no charge, no webhook log.
    await client(t, mallory.token).get(`/pm/properties/${malloryProperty}/pms`).expect(404);
    expect((await client(t, mallory.token).get(`/pm/properties/${malloryProperty}/units`).expect(200)).body.total).toBe(0);
    const config = (await as(t, mallory.token).post('/billing/config', configBody(malloryProperty)).expect(201)).body;
    const period = { billing_period_start: '2026-01-01', billing_period_end: '2026-01-31', total_amount: 5000, utility_type: 'water' };
    expect(
      (
        await as(t, mallory.token)
          .post('/billing/calculate-from-pms', { property_id: malloryProperty, billing_config_id: config.id, ...period })
          .expect(400)
      ).body,
    ).toEqual(NO_PMS);
    const calculation = (
      await as(t, mallory.token)
        .post('/billing/calculate-rubs', {
          property_id: malloryProperty,
          billing_config_id: config.id,
          ...period,
          units: EXAMPLE_UNITS.map((u, i) => ({ ...u, unit_id: `u${i + 1}` })),
        })
        .expect(200)
    ).body;
    expect((await as(t, mallory.token).post(`/billing/calculations/${calculation.id}/post`).expect(400)).body).toEqual(NO_PMS);
    expect(fake.requests.filter((r) => r.path === '/v1/charges')).toEqual([]);
    const event = await deliver(t, unitEvent('conn-victim', fakeUnit(1, 'VP', { sqft: 999 }))).expect(200);
    await eventually(async () => {
      expect(await createWebhookRepository(t.deps.database.db).findById(event.body.id)).toMatchObject({
        status: 'ignored',
        detail: 'connection not registered',
      });
    });
    expect((await logsOf(mallory)).filter((l) => l.connection_id === 'conn-victim')).toEqual([]);

    // The victim links with her session: the connection is hers, with its units and its webhook log.
    await put(victim, victimProperty, link).expect(200);
    expect(await owner('conn-victim')).toBe(victim.user.id);
    await eventually(async () =>
      expect((await client(t, victim.token).get(`/pm/properties/${victimProperty}/units`).expect(200)).body.total).toBe(2),
    );
    expect((await logsOf(victim)).map((l) => l.id)).toContain(event.body.id);

    // Mallory, from now on: 409, still nothing.
    expect((await put(mallory, malloryProperty, link).expect(409)).body).toEqual(TAKEN);
    await linkPms(t, mallory.token, malloryProperty, link, { authorize: () => undefined }, 409);
    expect((await logsOf(mallory)).filter((l) => l.connection_id === 'conn-victim')).toEqual([]);
    expect(await owner('conn-victim')).toBe(victim.user.id);
  });

  it('a session of one account cannot bind a connection for another', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const bobProperty = (await createProperty(t, bob.token)).id;
    const aliceProperty = (await createProperty(t, alice.token)).id;
    const aliceSession = await startLinkSession(t, alice.token);
    await startLinkSession(t, bob.token);
    // The provider says Alice authorised it: Bob, whatever his own sessions, may not bind it.
    fake.authorize('conn-ab', aliceSession.link_token);
    expect((await put(bob, bobProperty, { connection_id: 'conn-ab', pms_property_id: 'P' }).expect(403)).body).toEqual(NOT_AUTHORISED);
    expect(await owner('conn-ab')).toBeNull();
    await put(alice, aliceProperty, { connection_id: 'conn-ab', pms_property_id: 'P' }).expect(200);
    expect(await owner('conn-ab')).toBe(alice.user.id);
  });

  it('a session proves one connection: it binds no second one', async () => {
    const alice = await registerUser(t);
    const [p1, p2] = [(await createProperty(t, alice.token)).id, (await createProperty(t, alice.token)).id];
    const session = await startLinkSession(t, alice.token);
    fake.authorize('conn-one', session.link_token);
    fake.authorize('conn-two', session.link_token);
    await put(alice, p1, { connection_id: 'conn-one', pms_property_id: 'P' }).expect(200);
    expect((await put(alice, p2, { connection_id: 'conn-two', pms_property_id: 'P' }).expect(403)).body).toEqual(NOT_AUTHORISED);
    const [row] = await t.deps.database.db.select().from(pmsLinkSessions).where(eq(pmsLinkSessions.id, session.id));
    expect(row).toMatchObject({ connectionId: 'conn-one', usedAt: expect.any(Date) });
    await linkPms(t, alice.token, p2, { connection_id: 'conn-two', pms_property_id: 'P' }, fake);
  });

  it('an expired session is refused', async () => {
    const alice = await registerUser(t);
    const property = (await createProperty(t, alice.token)).id;
    const session = await startLinkSession(t, alice.token);
    fake.authorize('conn-late', session.link_token);
    clockOffset = 60 * 60 * 1000 + 1000;
    expect((await put(alice, property, { connection_id: 'conn-late', pms_property_id: 'P' }).expect(403)).body).toEqual(NOT_AUTHORISED);
    expect(await owner('conn-late')).toBeNull();
    // A new session, completed at the provider, binds it.
    await linkPms(t, alice.token, property, { connection_id: 'conn-late', pms_property_id: 'P' }, fake);
    expect(await owner('conn-late')).toBe(alice.user.id);
  });

  it('403 for a connection the provider does not know or reports without a reference; 502 when it cannot be asked', async () => {
    const alice = await registerUser(t);
    const property = (await createProperty(t, alice.token)).id;
    await startLinkSession(t, alice.token);
    expect((await put(alice, property, { connection_id: 'conn-unknown', pms_property_id: 'P' }).expect(403)).body).toEqual(NOT_AUTHORISED);
    fake.behaviour = (r, res) => {
      if (r.path !== '/v1/connections/conn-noref') return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'conn-noref', reference: null }));
      return true;
    };
    expect((await put(alice, property, { connection_id: 'conn-noref', pms_property_id: 'P' }).expect(403)).body).toEqual(NOT_AUTHORISED);
    const session = await startLinkSession(t, alice.token);
    fake.authorize('conn-down', session.link_token);
    let calls = 0;
    fake.behaviour = (r, res) => {
      if (r.path !== '/v1/connections/conn-down') return false;
      calls += 1;
      res.writeHead(503).end();
      return true;
    };
    expect((await put(alice, property, { connection_id: 'conn-down', pms_property_id: 'P' }).expect(502)).body).toEqual(
      errorBody({ detail: 'Could not verify this PMS connection with the provider; try again later' }),
    );
    expect(calls).toBe(3);
    expect(await owner('conn-down')).toBeNull();
    fake.behaviour = undefined;
    await put(alice, property, { connection_id: 'conn-down', pms_property_id: 'P' }).expect(200);
  });

  it('unlinking the last property frees the connection; the rightful account links it again', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const [p1, p2] = [(await createProperty(t, alice.token)).id, (await createProperty(t, alice.token)).id];
    const bobProperty = (await createProperty(t, bob.token)).id;
    const link = { connection_id: 'conn-free', pms_property_id: 'P1' };
    await linkPms(t, alice.token, p1, link, fake);
    await put(alice, p2, { connection_id: 'conn-free', pms_property_id: 'P2' }).expect(200);

    // One of two properties unlinked: the connection stays Alice's.
    await client(t, alice.token).delete(`/pm/properties/${p1}/pms`).expect(204);
    expect(await owner('conn-free')).toBe(alice.user.id);
    expect((await put(bob, bobProperty, link).expect(409)).body).toEqual(TAKEN);

    // The last one: freed. Its events are those of an unknown connection.
    await client(t, alice.token).delete(`/pm/properties/${p2}/pms`).expect(204);
    expect(await owner('conn-free')).toBeNull();
    const event = await deliver(t, unitEvent('conn-free', fakeUnit(1, 'P1'))).expect(200);
    await eventually(async () => {
      expect(await createWebhookRepository(t.deps.database.db).findById(event.body.id)).toMatchObject({
        status: 'ignored',
        detail: 'connection not registered',
      });
    });
    // Bob still cannot take it: the provider says Alice authorised it.
    expect((await put(bob, bobProperty, link).expect(403)).body).toEqual(NOT_AUTHORISED);
    await linkPms(t, alice.token, p1, link, fake);
    expect(await owner('conn-free')).toBe(alice.user.id);

    // Freed again and authorised by Bob at the provider (the PMS account changed hands): Bob's now.
    await client(t, alice.token).delete(`/pm/properties/${p1}/pms`).expect(204);
    await linkPms(t, bob.token, bobProperty, link, fake);
    expect(await owner('conn-free')).toBe(bob.user.id);
    expect((await put(alice, p1, link).expect(409)).body).toEqual(TAKEN);
  });

  it('relinking a property to another connection frees the one it leaves', async () => {
    const alice = await registerUser(t);
    const property = (await createProperty(t, alice.token)).id;
    await linkPms(t, alice.token, property, { connection_id: 'conn-old', pms_property_id: 'P' }, fake);
    await linkPms(t, alice.token, property, { connection_id: 'conn-new', pms_property_id: 'P' }, fake);
    expect(await owner('conn-old')).toBeNull();
    expect(await owner('conn-new')).toBe(alice.user.id);
  });

  it('two accounts binding one connection at once: exactly one wins, in every trial', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const connectionId = `conn-race-${trial}`;
      const [alice, bob] = [await registerUser(t), await registerUser(t)];
      const [ap, bp] = [(await createProperty(t, alice.token)).id, (await createProperty(t, bob.token)).id];
      const [as1, bs1] = [await startLinkSession(t, alice.token), await startLinkSession(t, bob.token)];
      // Each request is told that its own account authorised the connection (re-authorised at the
      // provider in between), both answers held until both asked: both pass the check, and race to bind.
      const held: Array<() => void> = [];
      let asked = 0;
      fake.behaviour = (r, res) => {
        if (r.path !== `/v1/connections/${connectionId}`) return false;
        const reference = [as1.link_token, bs1.link_token][asked++];
        held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: connectionId, reference })));
        if (held.length === 2) for (const answer of trial % 2 ? held.reverse() : held) answer();
        return true;
      };
      const first = put(alice, ap, { connection_id: connectionId, pms_property_id: 'PA' }).then((r) => r);
      await waitUntil('the first request asks the provider', async () => asked >= 1, 5000, 5);
      const [a, b] = await Promise.all([first, put(bob, bp, { connection_id: connectionId, pms_property_id: 'PB' }).then((r) => r)]);
      expect(asked).toBe(2);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? alice : bob;
      expect(await owner(connectionId)).toBe(winner.user.id);
      expect((a.status === 409 ? a : b).body).toEqual(TAKEN);
    }
  });
});

describe('binding a PMS connection without a provider configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('400 for a link session or a connection not bound yet; a connection bound before link sessions existed stays bound', async () => {
    const alice = await registerUser(t);
    const property = (await createProperty(t, alice.token)).id;
    const noProvider = errorBody({ detail: 'No PMS provider configured (PMS_API_URL and PMS_API_KEY are unset)' });
    expect(
      (await request(t.app).post('/api/v1/pm/pms/link-sessions').set('Authorization', `Bearer ${alice.token}`).expect(400)).body,
    ).toEqual(noProvider);
    expect(
      (await client(t, alice.token).put(`/pm/properties/${property}/pms`, { connection_id: 'conn-x', pms_property_id: 'P' }).expect(400))
        .body,
    ).toEqual(noProvider);
    await bindConnectionDirectly(t, alice.token, 'conn-before');
    await client(t, alice.token).put(`/pm/properties/${property}/pms`, { connection_id: 'conn-before', pms_property_id: 'P' }).expect(200);
  });

  it('documents the handshake in /openapi.json', async () => {
    const doc = (await request(t.app).get('/openapi.json').expect(200)).body;
    const start = doc.paths['/api/v1/pm/pms/link-sessions'].post;
    expect(Object.keys(start.responses)).toEqual(expect.arrayContaining(['201', '400', '401']));
    expect(start.responses['201'].content['application/json'].schema).toBeDefined();
    const link = doc.paths['/api/v1/pm/properties/{id}/pms'].put;
    expect(Object.keys(link.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '404', '409', '502']));
    expect(link.description).toContain('link session');
  });
});
