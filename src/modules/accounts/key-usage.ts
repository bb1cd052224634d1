import type { Logger } from '../../platform/logger';

/**
 * Keeps API keys' `last_used_at` current without a database write per request:
 * uses are collected in memory (latest time per key) and written in one batch
 * every `intervalMs` and on close.
 */
export class KeyUsageRecorder {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (uses: Array<{ id: string; at: Date }>) => Promise<void>,
    private readonly logger: Logger,
    intervalMs: number,
  ) {
    if (intervalMs > 0) {
      this.timer = setInterval(() => void this.flush(), intervalMs);
      this.timer.unref();
    }
  }

  record(keyId: string, at: Date): void {
    const previous = this.pending.get(keyId);
    if (!previous || previous < at) this.pending.set(keyId, at);
  }

  /** A use not yet written, so listings in this process are current too. */
  pendingUse(keyId: string): Date | undefined {
    return this.pending.get(keyId);
  }

  /** Writes what has been collected; flushes never overlap. A failed write is kept for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.write([...batch].map(([id, at]) => ({ id, at })));
      } catch (err) {
        this.logger.error({ err }, 'could not write API key last_used_at');
        for (const [id, at] of batch) this.record(id, at);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
