import { isoToMicros } from './timestamps';

describe('isoToMicros', () => {
  it.each([
    ['1970-01-01T00:00:00Z', 0n],
    ['1970-01-01T00:00:01.5Z', 1_500_000n],
    ['2026-03-02T14:05:09.123456Z', BigInt(Date.UTC(2026, 2, 2, 14, 5, 9)) * 1000n + 123_456n],
    ['2026-03-02T16:05:09.123456+02:00', BigInt(Date.UTC(2026, 2, 2, 14, 5, 9)) * 1000n + 123_456n],
    ['2026-03-02T09:35:09-0430', BigInt(Date.UTC(2026, 2, 2, 14, 5, 9)) * 1000n],
    ['2026-03-02T15:05:09+01', BigInt(Date.UTC(2026, 2, 2, 14, 5, 9)) * 1000n],
    // Beyond microseconds: rounded, as PostgreSQL does.
    ['1970-01-01T00:00:00.0000015Z', 2n],
    ['1970-01-01T00:00:00.0000014Z', 1n],
  ])('%s', (ts, micros) => {
    expect(isoToMicros(ts)).toBe(micros);
  });

  it('reads years before 100 as they are, as PostgreSQL does (not as 19xx)', () => {
    // extract(epoch from '0001-01-01T00:00:00Z'::timestamptz) * 1000000 on PostgreSQL
    expect(isoToMicros('0001-01-01T00:00:00Z')).toBe(-62135596800000000n);
    expect(isoToMicros('0001-01-01T00:00:00+15:59')).toBe(-62135654340000000n);
    expect(isoToMicros('0099-12-31T23:59:59Z') < isoToMicros('0100-01-01T00:00:00Z')).toBe(true);
  });

  it('keeps the order of events microseconds apart, which milliseconds would tie', () => {
    expect(isoToMicros('2026-03-02T14:05:09.123456Z') > isoToMicros('2026-03-02T14:05:09.123455Z')).toBe(true);
  });

  it('refuses a time without a zone', () => {
    expect(() => isoToMicros('2026-03-02T14:05:09')).toThrow('not an ISO 8601 date-time with a zone');
  });
});
