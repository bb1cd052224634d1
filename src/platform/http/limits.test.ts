import { dailyQuotaFor } from './limits';
import { safeEqual } from './auth';

describe('dailyQuotaFor', () => {
  const limits = {
    registerPerMin: 5,
    loginPerMin: 10,
    webhookRefusedPerMin: 60,
    auditPerMin: 20,
    quotaFreePerDay: 1000,
    quotaProPerDay: 100000,
    maxApiKeys: 10,
  };
  it('Free and anonymous get the Free quota, Pro the Pro quota, Enterprise none', () => {
    expect(dailyQuotaFor('free', limits)).toBe(1000);
    expect(dailyQuotaFor(null, limits)).toBe(1000);
    expect(dailyQuotaFor('pro', limits)).toBe(100000);
    expect(dailyQuotaFor('enterprise', limits)).toBeNull();
  });
});

describe('safeEqual', () => {
  it('is true only for identical strings, whatever the lengths', () => {
    expect(safeEqual('secret-token', 'secret-token')).toBe(true);
    expect(safeEqual('secret-token', 'secret-tokem')).toBe(false);
    expect(safeEqual('secret-token', 'secret-token-longer')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('', 'x')).toBe(false);
  });
});
