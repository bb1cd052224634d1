import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { signBody } from '../../src/modules/webhooks/signature';
import type { FakePmsProvider, FakeUnit } from '../helpers/fake-pms';
import { registerUser, type RegisteredTestUser } from '../helpers/users';
import { eventually } from '../helpers/eventually';
import { linkPms } from '../helpers/pms-link';
import { createProperty } from '../pm/helpers';

export const SECRET = 'whsec-test-0123456789';

/** PUT, GET and DELETE of /api/v1 paths as one user. */
export function client(t: TestApp, token: string) {
  const auth = (r: request.Test) => r.set('Authorization', `Bearer ${token}`);
  return {
    get: (path: string) => auth(request(t.app).get(`/api/v1${path}`)),
    put: (path: string, body?: unknown) => auth(request(t.app).put(`/api/v1${path}`)).send(body as object),
    delete: (path: string) => auth(request(t.app).delete(`/api/v1${path}`)),
    logs: (query = '') => auth(request(t.app).get(`/api/webhooks/logs${query}`)),
  };
}

/** Posts a body to the receiver, signed with `secret` (or with the header given). */
export function deliver(t: TestApp, body: unknown, opts: { secret?: string; signature?: string | null } = {}) {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const req = request(t.app).post('/api/webhooks/pms').set('content-type', 'application/json');
  const signature = opts.signature === undefined ? signBody(raw, opts.secret ?? SECRET) : opts.signature;
  if (signature !== null) req.set('X-Pms-Signature', signature);
  return req.send(raw);
}

let clock = 0;
/** Strictly increasing event times, never behind the wall clock (imports stamp units with it). */
export function nextTimestamp(): string {
  clock = Math.max(clock + 1, Date.now());
  return new Date(clock).toISOString();
}

export function unitEvent(
  connectionId: string,
  unit: FakeUnit,
  event: 'data.new' | 'data.update' = 'data.update',
  timestamp = nextTimestamp(),
) {
  return { event, timestamp, connection_id: connectionId, resource_type: 'unit', data: unit };
}

/** The units of a property as its owner lists them (GET /pm/properties/{id}/units). */
export async function propertyUnits(t: TestApp, token: string, propertyId: string): Promise<Array<Record<string, unknown>>> {
  return (await client(t, token).get(`/pm/properties/${propertyId}/units`).expect(200)).body.items;
}

/**
 * Starts `fake`, then a test app running its jobs with `fake` as its PMS provider and a webhook
 * receiver signed with SECRET; registers alice, and links her property `name` to PMS property P1
 * on connection `conn`, whose `units` the fake serves: returns once the link's import stored them.
 * The caller stops both (`t.stop()`, `fake.stop()`).
 */
export async function startLinkedProperty(
  fake: FakePmsProvider,
  { conn, name, units }: { conn: string; name: string; units: FakeUnit[] },
): Promise<{ t: TestApp; alice: RegisteredTestUser; propertyId: string }> {
  const url = await fake.start();
  const t = await createTestApp({ jobs: true, env: { PMS_WEBHOOK_SECRET: SECRET, PMS_API_URL: url, PMS_API_KEY: 'k' } });
  const alice = await registerUser(t);
  const propertyId = (await createProperty(t, alice.token, { name })).id;
  fake.setUnits(conn, 'P1', units);
  await linkPms(t, alice.token, propertyId, { connection_id: conn, pms_property_id: 'P1' }, fake);
  await eventually(async () => expect(await propertyUnits(t, alice.token, propertyId)).toHaveLength(units.length));
  return { t, alice, propertyId };
}
