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
