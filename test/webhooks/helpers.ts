import request from 'supertest';
import type { TestApp } from '../helpers/app';
import { signBody } from '../../src/modules/webhooks/signature';
import type { FakeUnit } from '../helpers/fake-pms';

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
