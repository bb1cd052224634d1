import type { Scenario, BenchContext } from '../types';

async function newUser(ctx: BenchContext, tag: string) {
  const email = `bench-${tag}-${Date.now()}@example.com`;
  const password = 'BenchPassw0rd';
  await ctx.call('POST', '/api/v1/auth/register', { email, password, full_name: 'Bench User' });
  const { access_token } = await ctx.call<{ access_token: string }>(
    'POST', '/api/v1/auth/login', `username=${encodeURIComponent(email)}&password=${password}`, undefined, true,
  );
  return access_token;
}

export const accountScenarios: Scenario[] = [
  {
    kind: 'http',
    name: 'GET /auth/me (bearer token)',
    issue: 2,
    target: { minRatioToHealth: 0.6, minRatioToBare: 0.5, bareIssue: 13 },
    prepare: async (ctx) => {
      const token = await newUser(ctx, 'bearer');
      return { path: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } };
    },
  },
  {
    kind: 'http',
    name: 'GET /auth/me (X-API-Key)',
    issue: 2,
    target: { minRatioToHealth: 0.6 },
    prepare: async (ctx) => {
      const token = await newUser(ctx, 'apikey');
      const { key } = await ctx.call<{ key: string }>('POST', '/api/v1/auth/api-keys', { name: 'bench' }, {
        authorization: `Bearer ${token}`,
      });
      return { path: '/api/v1/auth/me', headers: { 'x-api-key': key } };
    },
  },
];
