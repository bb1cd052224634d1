import { layoutOfHeader, pgeMinutes, parseClock, parseDate } from './csv-layouts';

describe('CSV layouts', () => {
  it('recognizes the PG&E, SCE, SDG&E and generic headers', () => {
    expect(layoutOfHeader(['TYPE', 'DATE', 'START TIME', 'END TIME', 'USAGE', 'UNITS', 'COST', 'NOTES'])?.name).toBe('pge');
    expect(layoutOfHeader(['Energy consumption time period', 'Usage(Real energy in kilowatt-hours)', 'Reading quality'])?.name).toBe('sce');
    expect(layoutOfHeader(['Meter Number', 'Date', 'Start Time', 'Duration', 'Consumption', 'Generation', 'Net'])?.name).toBe('sdge');
    expect(layoutOfHeader(['start', 'end', 'kwh'])?.name).toBe('generic');
    expect(layoutOfHeader(['period_start', 'period_end', 'amount'])).toBeNull();
  });

  it('reads dates, clock times and PG&E interval lengths', () => {
    expect(parseDate('2019-07-01')).toEqual({ y: 2019, mo: 7, d: 1 });
    expect(parseDate('7/1/2019')).toEqual({ y: 2019, mo: 7, d: 1 });
    expect(parseDate('2019-02-30')).toBeNull();
    expect(parseClock('12:15 AM')).toBe(15);
    expect(parseClock('1:00 PM')).toBe(780);
    expect(parseClock('23:45')).toBe(1425);
    expect(pgeMinutes('00:00', '00:14')).toBe(15);
    expect(pgeMinutes('23:45', '23:59')).toBe(15);
    expect(pgeMinutes('13:00', '13:59')).toBe(60);
    expect(pgeMinutes('00:00', '00:15')).toBe(15);
  });

  it('a PG&E row in another unit is refused', () => {
    const pge = layoutOfHeader(['TYPE', 'DATE', 'START TIME', 'END TIME', 'USAGE', 'UNITS'])!;
    expect(pge.read(['Gas usage', '2019-07-01', '00:00', '23:59', '1.2', 'therms'])).toBe("UNITS 'therms' is not kWh");
    expect(pge.read(['Electric usage', '2019-07-01', '00:00', '00:14', '0.17', 'kWh'])).toEqual({
      local: { y: 2019, mo: 7, d: 1, h: 0, mi: 0 },
      minutes: 15,
      kwh: 0.17,
    });
  });
});
