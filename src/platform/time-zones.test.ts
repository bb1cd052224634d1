import { instantsOf, isoLocal, isRepeatedLocalTime, localFields } from './time-zones';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('local time', () => {
  it('a local time on the spring-forward day: none in the gap, one after', () => {
    expect(instantsOf('America/Los_Angeles', 2019, 3, 10, 2, 30)).toEqual([]);
    expect(instantsOf('America/Los_Angeles', 2019, 3, 10, 3, 0)).toEqual([at('2019-03-10T10:00:00Z')]);
  });

  it('a local time of the fall-back hour has two instants, an hour apart', () => {
    expect(instantsOf('America/Los_Angeles', 2019, 11, 3, 1, 15)).toEqual([at('2019-11-03T08:15:00Z'), at('2019-11-03T09:15:00Z')]);
    expect(isRepeatedLocalTime('America/Los_Angeles', at('2019-11-03T08:15:00Z'))).toBe(true);
    expect(isRepeatedLocalTime('America/Los_Angeles', at('2019-11-03T09:15:00Z'))).toBe(true);
    expect(isRepeatedLocalTime('America/Los_Angeles', at('2019-11-03T10:00:00Z'))).toBe(false);
    expect(isRepeatedLocalTime('America/Phoenix', at('2019-11-03T08:15:00Z'))).toBe(false);
  });

  it('ISO with the offset of the instant; weekday', () => {
    expect(isoLocal('America/Denver', at('2019-07-01T06:00:00Z'))).toBe('2019-07-01T00:00:00-06:00');
    expect(isoLocal('America/Denver', at('2019-01-01T07:00:00Z'))).toBe('2019-01-01T00:00:00-07:00');
    expect(localFields('America/Denver', at('2019-07-06T18:00:00Z')).weekday).toBe(6);
  });
});
