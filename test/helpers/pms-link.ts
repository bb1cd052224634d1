import request from 'supertest';
import type { TestApp } from './app';
import { pmsConnections } from '../../src/modules/pms/tables';

/** A fake PMS provider's connect flow (FakePmsProvider, FakePmsLedger). */
export interface LinkAuthorizer {
  /** Completes a link session at the provider: `connectionId` now reports `linkToken` as its reference. */
  authorize(connectionId: string, linkToken: string): void;
}

export interface PmsLinkBody {
  connection_id: string;
  pms_property_id: string;
}

export interface LinkSession {
  id: string;
  link_token: string;
  expires_at: string;
}

/** POST /pm/pms/link-sessions as the token's user (201 expected). */
export async function startLinkSession(t: TestApp, token: string): Promise<LinkSession> {
  const res = await request(t.app).post('/api/v1/pm/pms/link-sessions').set('Authorization', `Bearer ${token}`).expect(201);
  return res.body as LinkSession;
}

/**
 * Links a property through the handshake: a link session of the token's user, completed at the
 * fake provider for `body.connection_id`, then `PUT /pm/properties/{id}/pms`; the PUT's answer,
 * its status checked (200 unless `expected` says otherwise).
 */
export async function linkPms(t: TestApp, token: string, propertyId: string, body: PmsLinkBody, provider: LinkAuthorizer, expected = 200) {
  const session = await startLinkSession(t, token);
  provider.authorize(body.connection_id, session.link_token);
  return request(t.app).put(`/api/v1/pm/properties/${propertyId}/pms`).set('Authorization', `Bearer ${token}`).send(body).expect(expected);
}

/**
 * The same handshake over any HTTP client (the fault tests, the multi-process tests, the bench):
 * `send` makes one authenticated call to the API (`path` from the site root) and returns its JSON.
 */
export async function linkThroughProvider(
  send: (method: 'POST' | 'PUT', path: string, body?: unknown) => Promise<unknown>,
  provider: LinkAuthorizer,
  propertyId: string,
  body: PmsLinkBody,
): Promise<unknown> {
  const session = (await send('POST', '/api/v1/pm/pms/link-sessions')) as LinkSession;
  provider.authorize(body.connection_id, session.link_token);
  return send('PUT', `/api/v1/pm/properties/${propertyId}/pms`, body);
}

/**
 * Binds a connection to the token's user without the handshake, as a connection bound first-come
 * before link sessions existed stays bound: for apps that have no provider to complete a session with.
 */
export async function bindConnectionDirectly(t: TestApp, token: string, connectionId: string): Promise<void> {
  const me = await request(t.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
  await t.deps.database.db
    .insert(pmsConnections)
    .values({ connectionId, ownerId: (me.body as { id: string }).id })
    .onConflictDoNothing();
}
