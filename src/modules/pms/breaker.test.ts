import { CircuitBreaker } from './breaker';

describe('CircuitBreaker', () => {
  let t = 0;
  const make = () => new CircuitBreaker({ threshold: 3, openMs: 1000, now: () => t });
  beforeEach(() => {
    t = 0;
  });

  it('opens after `threshold` failures in a row and refuses calls while open', () => {
    const b = make();
    b.failure();
    b.failure();
    expect(b.tryAcquire()).toBe(true);
    b.failure();
    expect(b.state).toBe('open');
    expect(b.tryAcquire()).toBe(false);
    t = 999;
    expect(b.tryAcquire()).toBe(false);
  });

  it('a success resets the count of failures', () => {
    const b = make();
    b.failure();
    b.failure();
    b.success();
    b.failure();
    b.failure();
    expect(b.state).toBe('closed');
  });

  it('after openMs lets one trial through: success closes, failure reopens for another openMs', () => {
    const b = make();
    for (let i = 0; i < 3; i++) b.failure();
    t = 1000;
    expect(b.state).toBe('half-open');
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false); // one trial at a time
    b.failure();
    expect(b.state).toBe('open');
    t = 1999;
    expect(b.tryAcquire()).toBe(false);
    t = 2000;
    expect(b.tryAcquire()).toBe(true);
    b.success();
    expect(b.state).toBe('closed');
    expect(b.tryAcquire()).toBe(true);
  });

  it('a neutral outcome of the trial frees it without closing or reopening', () => {
    const b = make();
    for (let i = 0; i < 3; i++) b.failure();
    t = 1000;
    expect(b.tryAcquire()).toBe(true);
    b.neutral();
    expect(b.state).toBe('half-open');
    expect(b.tryAcquire()).toBe(true);
  });
});
