/**
 * A circuit breaker: after `threshold` failures in a row it opens and refuses calls for
 * `openMs`; then it lets one trial call through (half-open): success closes it, failure
 * opens it again. Pure state over an injected clock, so it is tested without waiting.
 */
export interface BreakerOptions {
  threshold: number;
  openMs: number;
  now?: () => number;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialRunning = false;
  private readonly now: () => number;

  constructor(private readonly opts: BreakerOptions) {
    this.now = opts.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.openedAt === null) return 'closed';
    return this.now() - this.openedAt >= this.opts.openMs ? 'half-open' : 'open';
  }

  /** True when a call may go out now; a half-open breaker admits one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialRunning) return false;
    this.trialRunning = true;
    return true;
  }

  success(): void {
    this.failures = 0;
    this.openedAt = null;
    this.trialRunning = false;
  }

  failure(): void {
    this.trialRunning = false;
    this.failures += 1;
    if (this.openedAt !== null || this.failures >= this.opts.threshold) this.openedAt = this.now();
  }

  /** A call that ended without saying anything about the provider's health (e.g. a 404). */
  neutral(): void {
    this.trialRunning = false;
  }
}
