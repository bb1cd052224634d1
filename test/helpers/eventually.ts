/** Retries `check` until it passes or the time is up (background jobs finish after the HTTP answer). */
export async function eventually(check: () => Promise<void>, timeoutMs = 15000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Polls `check` every `intervalMs` until it is true; throws once `timeoutMs` has passed. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
