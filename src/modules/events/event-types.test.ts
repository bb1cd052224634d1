import { intervalsImportedEvent } from './event-types';

describe('meter.intervals.imported (README "Events")', () => {
  it('counts the intervals, ends after the last one (UTC) and sums the kWh to the Wh', () => {
    // 4 intervals of 15 minutes from midnight at -05:00 (05:00 UTC) end at 06:00 UTC.
    // 1.1 + 2.2 + 0.3 + 0.0004 kWh: 1,100 + 2,200 + 300 + 0 Wh = 3,600 Wh = 3.6 kWh (not 3.6004, nor 3.6000000000000005).
    expect(
      intervalsImportedEvent({
        ownerId: 'u1',
        propertyId: 'p1',
        meterId: 'm1',
        importId: 'imp1',
        start: '2026-07-01T00:00:00-05:00',
        intervalMinutes: 15,
        kwh: [1.1, 2.2, 0.3, 0.0004],
      }),
    ).toEqual({
      ownerId: 'u1',
      type: 'meter.intervals.imported',
      dedupeKey: 'meter.intervals.imported:imp1',
      data: {
        meter_id: 'm1',
        property_id: 'p1',
        start: '2026-07-01T00:00:00-05:00',
        end: '2026-07-01T06:00:00.000Z',
        intervals: 4,
        interval_minutes: 15,
        kwh: 3.6,
      },
    });
  });
});
