import type { BenchContext } from '../types';

/** Registers and logs in a fresh user; returns its Authorization header and e-mail. */
export async function newUser(ctx: BenchContext, tag: string): Promise<{ auth: Record<string, string>; email: string }> {
  const email = `bench-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'BenchPassw0rd';
  await ctx.call('POST', '/api/v1/auth/register', { email, password, full_name: 'Bench User' });
  const { access_token } = await ctx.call<{ access_token: string }>(
    'POST',
    '/api/v1/auth/login',
    `username=${encodeURIComponent(email)}&password=${password}`,
    undefined,
    true,
  );
  return { auth: { authorization: `Bearer ${access_token}` }, email };
}

/** Runs `work(i)` for i in 0..count-1, `parallel` at a time. */
export async function inParallel(count: number, parallel: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Creates `count` properties through the public API, 16 requests at a time; returns their ids, property i's at i. */
export async function seedProperties(
  ctx: BenchContext,
  auth: Record<string, string>,
  count: number,
  body: (i: number) => object,
): Promise<string[]> {
  const ids: string[] = new Array(count);
  await inParallel(count, 16, async (i) => {
    ids[i] = (await ctx.call<{ id: string }>('POST', '/api/v1/pm/properties', body(i), auth)).id;
  });
  return ids;
}
