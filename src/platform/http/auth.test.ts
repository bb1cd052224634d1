import express from 'express';
import request from 'supertest';
import { issueAccessToken } from '../../modules/accounts/tokens';
import { createAuthentication, type AuthUser, type CredentialResolver } from './auth';
import { errorHandler } from './errors';
import { createLogger } from '../logger';
import { errorBody } from '../../../test/helpers/error-body';

const SECRET = 'auth-test-secret-0123456789-abcdefghij';
const T0 = new Date('2026-06-01T12:00:00Z');

function user(id: string): AuthUser {
  return {
    id,
    email: `${id}@example.com`,
    full_name: id,
    company: null,
    tier: 'free',
    is_active: true,
    created_at: T0.toISOString(),
    last_login: null,
    api_key_id: null,
  };
}

/** An app with one required and one optional route behind the authentication under test. */
function site() {
  let now = T0;
  const active = new Set(['u1', 'u2']);
  const lookups: string[] = [];
  const resolver: CredentialResolver = {
    userById: async (id) => {
      lookups.push(id);
      return active.has(id) ? user(id) : null;
    },
    userByApiKey: async (key) => (key === 'good-key' ? { ...user('u2'), api_key_id: 'k1' } : null),
  };
  const auth = createAuthentication({ jwtSecret: SECRET, now: () => now, resolver });
  const app = express();
  app.get('/required', auth.required, (req, res) => {
    res.json({ user: req.user!.id, key: req.user!.api_key_id });
  });
  app.get('/optional', auth.optional, (req, res) => {
    res.json({ user: req.user?.id ?? null });
  });
  app.get('/helpers', auth.required, (req, res) => {
    res.json({
      authenticated: req.isAuthenticated(),
      unauthenticated: req.isUnauthenticated(),
    });
  });
  app.use(errorHandler(createLogger('silent')));
  return {
    app,
    active,
    lookups,
    setNow: (d: Date) => (now = d),
    token: (userId: string, lifetimeMinutes = 30) => issueAccessToken({ secret: SECRET, userId, now, lifetimeMinutes }),
  };
}

describe('authentication (passport: jwt and api-key strategies)', () => {
  it('accepts a valid bearer token and an API key, and prefers the key when both are sent', async () => {
    const s = site();
    const token = s.token('u1');
    expect((await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(200)).body).toEqual({
      user: 'u1',
      key: null,
    });
    expect((await request(s.app).get('/required').set('X-API-Key', 'good-key').expect(200)).body).toEqual({ user: 'u2', key: 'k1' });
    const both = await request(s.app).get('/required').set('X-API-Key', 'good-key').set('Authorization', `Bearer ${token}`).expect(200);
    expect(both.body).toEqual({ user: 'u2', key: 'k1' });
  });

  // Issue 28 replaced "helpers defined once on the request prototype" with passport's own middleware, which adds them per request.
  it("passport's request helpers work as passport documents them", async () => {
    const s = site();
    const res = await request(s.app)
      .get('/helpers')
      .set('Authorization', `Bearer ${s.token('u1')}`)
      .expect(200);
    expect(res.body).toEqual({ authenticated: true, unauthenticated: false });
  });

  it('answers 401 Not authenticated for missing, malformed, badly signed and unknown credentials', async () => {
    const s = site();
    const token = s.token('u1');
    const forged = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    for (const headers of [
      {},
      { Authorization: 'Bearer not-a-jwt' },
      { Authorization: `Bearer ${forged}` },
      { 'X-API-Key': 'bad-key' },
      { Authorization: 'Basic abc' },
    ]) {
      const res = await request(s.app).get('/required').set(headers).expect(401);
      expect(res.body).toEqual(errorBody({ detail: 'Not authenticated' }));
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await request(s.app).get('/optional').expect(200)).body).toEqual({ user: null });
    expect((await request(s.app).get('/optional').set('Authorization', `Bearer ${forged}`).expect(401)).body).toEqual(
      errorBody({ detail: 'Not authenticated' }),
    );
  });

  it('a token accepted before is refused once it expires', async () => {
    const s = site();
    const token = s.token('u1', 10);
    await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(200);
    s.setNow(new Date(T0.getTime() + 9 * 60_000));
    await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(200);
    s.setNow(new Date(T0.getTime() + 10 * 60_000));
    await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('a token accepted before is refused once its user is deactivated, and its user is looked up on every request', async () => {
    const s = site();
    const token = s.token('u1');
    await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(200);
    await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(200);
    expect(s.lookups).toEqual(['u1', 'u1']);
    s.active.delete('u1');
    await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('a token differing from an accepted one by a character is refused', async () => {
    const s = site();
    const token = s.token('u2');
    await request(s.app).get('/required').set('Authorization', `Bearer ${token}`).expect(200);
    const [header, payload, signature] = token.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ sub: 'u1', exp: 4102444800 })).toString('base64url');
    await request(s.app).get('/required').set('Authorization', `Bearer ${header}.${otherPayload}.${signature}`).expect(401);
    await request(s.app).get('/required').set('Authorization', `Bearer ${header}.${payload}.${signature}x`).expect(401);
  });
});
