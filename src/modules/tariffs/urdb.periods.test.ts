import { namePeriods, variesWithinDay } from './urdb.periods';

const flatRows = (digits: string) => [...digits].map((d) => Array<number>(24).fill(Number(d)));
const sameDay = (day: string) => Array.from({ length: 12 }, () => [...day].map(Number));

describe('period naming and classification helpers', () => {
  it('names the most expensive period of a day on_peak, the cheapest off_peak, others mid_peak', () => {
    const day = '000000000011111122222000'; // 0 cheap, 1 middle, 2 dear
    expect(namePeriods([0.05, 0.1, 0.2], sameDay(day), sameDay('0'.repeat(24)))).toEqual(['off_peak', 'mid_peak', 'on_peak']);
  });

  it('prefixes summer/winter to periods that occur only in those seasons', () => {
    const summerDay = '000000000000001111110000'.replace(/1/g, '2').replace(/0/g, '3'); // periods 2/3 in summer
    const winterDay = '000000000000001111110000'; // periods 0/1 in winter
    const weekday = [...Array(5).fill(winterDay), ...Array(4).fill(summerDay), ...Array(3).fill(winterDay)].map((d: string) =>
      [...d].map(Number),
    );
    const weekend = [...Array(5).fill('0'.repeat(24)), ...Array(4).fill('3'.repeat(24)), ...Array(3).fill('0'.repeat(24))].map(
      (d: string) => [...d].map(Number),
    );
    expect(namePeriods([0.08, 0.12, 0.3, 0.1], weekday, weekend)).toEqual([
      'winter_off_peak',
      'winter_on_peak',
      'summer_on_peak',
      'summer_off_peak',
    ]);
  });

  it('names periods that never share a day by season, numbers repeats and unused periods', () => {
    expect(namePeriods([0.1, 0.2, 0.3], flatRows('000000111111'), flatRows('000000111111'))).toEqual(['winter', 'summer', 'period_3']);
    expect(namePeriods([0.1, 0.1], flatRows('001110000000'), flatRows('001110000000'))).toEqual(['seasonal', 'shoulder']);
    expect(namePeriods([0.1, 0.1], flatRows('001111111100'), flatRows('001111111100'))).toEqual(['winter', 'summer']);
    expect(namePeriods([0.1, 0.1], flatRows('000000000000'), flatRows('000000000000'))).toEqual(['all_year', 'period_2']);
    // Same role and season twice: numbered in period order.
    expect(namePeriods([0.1, 0.2, 0.2], sameDay('0'.repeat(12) + '1'.repeat(12)), sameDay('0'.repeat(12) + '2'.repeat(12)))).toEqual([
      'off_peak',
      'on_peak',
      'on_peak_2',
    ]);
  });

  it('detects time-of-use only when a day has more than one period', () => {
    expect(variesWithinDay(flatRows('000000111111'), flatRows('000000111111'))).toBe(false);
    expect(variesWithinDay(flatRows('000000000000'), sameDay('0'.repeat(23) + '1'))).toBe(true);
  });
});
