import { dataAgeNotices, tariffNotices } from './tariff-notices';

describe('the age of a tariff, said out loud (issue 26)', () => {
  const today = '2026-11-26';

  it('is silent for a current tariff of the last 5 years, to the day', () => {
    expect(dataAgeNotices({ effectiveDate: '2021-11-26', expirationDate: null }, today)).toEqual([]);
    expect(dataAgeNotices({ effectiveDate: '2024-01-01', expirationDate: '2026-11-26' }, today)).toEqual([]);
  });

  it('says when the rates are more than 5 years old, unknown, or expired, with the date', () => {
    expect(dataAgeNotices({ effectiveDate: '2021-11-25', expirationDate: null }, today)).toEqual([
      "the tariff's rates took effect on 2021-11-25, more than 5 years ago: the utility's current rates may differ",
    ]);
    expect(dataAgeNotices({ effectiveDate: null, expirationDate: null }, today)).toEqual([
      "the tariff's effective date is not published: its rates may be out of date",
    ]);
    expect(dataAgeNotices({ effectiveDate: '2024-01-01', expirationDate: '2022-06-30' }, today)).toEqual([
      'the tariff expired on 2022-06-30: the utility no longer bills these rates, so its current tariff may cost more or less',
    ]);
  });

  it('counts 5 years from a leap day to Feb 28', () => {
    expect(dataAgeNotices({ effectiveDate: '2019-02-28', expirationDate: null }, '2024-02-29')).toEqual([]);
    expect(dataAgeNotices({ effectiveDate: '2019-02-27', expirationDate: null }, '2024-02-29')).toHaveLength(1);
  });

  it('adds what the classification had to assume', () => {
    expect(tariffNotices({ effectiveDate: '2025-01-01', expirationDate: null, classNote: 'Tariff class: x.' }, today)).toEqual([
      'Tariff class: x.',
    ]);
  });
});
