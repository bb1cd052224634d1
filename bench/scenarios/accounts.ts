import type { Scenario } from '../types';
import { newUser } from './seed';

export const accountScenarios: Scenario[] = [
  {
    kind: 'http',
    name: 'GET /auth/me (bearer token)',
    prepare: async (ctx) => {
      const { auth } = await newUser(ctx, 'bearer');
      return { path: '/api/v1/auth/me', headers: auth };
    },
  },
  {
    kind: 'http',
    name: 'GET /auth/me (X-API-Key)',
    prepare: async (ctx) => {
      const { auth } = await newUser(ctx, 'apikey');
      const { key } = await ctx.call<{ key: string }>('POST', '/api/v1/auth/api-keys', { name: 'bench' }, auth);
      return { path: '/api/v1/auth/me', headers: { 'x-api-key': key } };
    },
  },
];
