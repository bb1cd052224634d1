/**
 * Issue 47 item 2: a billing period bills as many months of a monthly tariff as it is long (pricing
 * README "Monthly charges and usage blocks over a period's length"). Amounts hand-computed.
 */
import type { Tariff, UtilityType } from '../../tariffs/tariff.model';
import type { RatesInput } from '../../tariffs/custom/rates.parse';
import { allYear, monthlyWaterRates, ratesTariff } from '../../../../test/fixtures/rates-tariff';
import { bundledLoadShapes } from '../load-shapes';
import { calculateBill } from './index';
import { calculatePeriodBill, periodTotalCents, type PeriodPiece } from './period';
import { periodLength } from './period-length';

const shapes = bundledLoadShapes();

const tariffOf = (type: UtilityType, unit: string, rates: RatesInput) => ratesTariff(type, unit, rates);

/** The monthly water rate: $4.86 a ccf for the first 20 ccf, $5.94 above, $11.80 a month. */
const water = tariffOf('water', 'ccf', monthlyWaterRates);
/** An electric rate with a demand charge and a daily charge: $0.10/kWh, $10/kW a month, $0.50 a day. */
const demand = tariffOf('electric', 'kWh', {
  energy_rates: [{ ...allYear, rate_per_kwh: 0.1 }],
  demand_rates: [{ period: 'all_year', months: allYear.months, type: 'facility', rate_per_kw: 10 }],
  fixed_charges: [{ name: 'Basic charge', amount: 0.5, frequency: 'daily' }],
});

/** The pieces of a period on one tariff: [month, days] of each calendar month it touches. */
const piecesOf = (tariff: Tariff, ...parts: Array<[number, number]>): PeriodPiece[] =>
  parts.map(([month, days]) => ({ tariff, month, days, versionDate: null }));
const lines = (pieces: PeriodPiece[], usage: number, demandKw: number | null = null) =>
  calculatePeriodBill(pieces, { usageKwh: usage, demandKw }, shapes);

describe('periodLength: how many months a billing period bills', () => {
  it('a read within 5 days of 1, 2 or 3 average months (30, 61, 91 days) bills that many; any other, its days / 30.4375', () => {
    const months = (days: number) => periodLength(days).months;
    for (const days of [25, 28, 30, 31, 35]) expect(months(days)).toEqual({ num: 1, den: 1 });
    for (const days of [56, 59, 62, 66]) expect(months(days)).toEqual({ num: 2, den: 1 });
    for (const days of [86, 90, 92]) expect(months(days)).toEqual({ num: 3, den: 1 });
    // 18 / 30.4375 = 288 / 487 months; 24, 36, 55, 67 and 85 days are no regular read either.
    expect(months(18)).toEqual({ num: 288, den: 487 });
    for (const days of [1, 24, 36, 45, 55, 67, 85]) expect(months(days)).toEqual({ num: days * 16, den: 487 });
  });
});

describe('a billing period bills monthly charges and usage blocks for its length (issue 47 item 2)', () => {
  it('a quarter (January to March, 90 days) with 90 ccf: 3 x $11.80 and 60 ccf in the first block, $505.20', () => {
    const bill = lines(piecesOf(water, [1, 31], [2, 28], [3, 31]), 90);
    // 60 x 4.86 = 291.60; 30 x 5.94 = 178.20; 3 x 11.80 = 35.40: 505.20. Before: one month's $11.79 and 20 ccf: $524.79.
    expect(bill.totalCostCents).toBe(50520);
    // Each line x the month's days / 90; $35.40 is 12.1933 + 11.0133 + 12.1933: rounded once, the cent left over goes to January.
    expect(bill.lineItems.filter((l) => l.category === 'fixed').map((l) => [l.name, l.amount])).toEqual([
      ['Service charge: $11.8/month x 3 months (31/90 days in January)', 12.2],
      ['Service charge: $11.8/month x 3 months (28/90 days in February)', 11.01],
      ['Service charge: $11.8/month x 3 months (31/90 days in March)', 12.19],
    ]);
    expect(bill.lineItems.filter((l) => l.category === 'energy').map((l) => [l.name, l.amount])).toEqual([
      ['Usage all_year tier 1: 60 ccf x $4.86/ccf (31/90 days in January)', 100.44],
      ['Usage all_year tier 2: 30 ccf x $5.94/ccf (31/90 days in January)', 61.38],
      ['Usage all_year tier 1: 60 ccf x $4.86/ccf (28/90 days in February)', 90.72],
      ['Usage all_year tier 2: 30 ccf x $5.94/ccf (28/90 days in February)', 55.44],
      ['Usage all_year tier 1: 60 ccf x $4.86/ccf (31/90 days in March)', 100.44],
      ['Usage all_year tier 2: 30 ccf x $5.94/ccf (31/90 days in March)', 61.38],
    ]);
    expect(bill.assumptions).toContain(
      'billing period of 90 days billed as 3 months (a read within 5 days of 3 average months): monthly charges (fixed, minimum and demand) and usage blocks x 3',
    );
    expect(periodTotalCents(piecesOf(water, [1, 31], [2, 28], [3, 31]), { usageKwh: 90 }, shapes)).toBe(50520);
  });

  it('a bi-monthly read (January and February, 59 days) with 50 ccf: 2 x $11.80 and 40 ccf in the first block, $277.40', () => {
    // 40 x 4.86 = 194.40; 10 x 5.94 = 59.40; 2 x 11.80 = 23.60.
    expect(lines(piecesOf(water, [1, 31], [2, 28]), 50).totalCostCents).toBe(27740);
  });

  it('an 18-day read with 15 ccf: the charge and the block x 18 / 30.4375 months, $83.30', () => {
    const bill = lines(piecesOf(water, [1, 18]), 15);
    // 11.80 x 288/487 = 6.978 -> 6.98; block 20 x 288/487 = 11.8275 -> 11.828 ccf: 11.828 x 4.86 = 57.484 -> 57.48;
    // 3.172 x 5.94 = 18.842 -> 18.84. 6.98 + 57.48 + 18.84 = 83.30.
    expect(bill.lineItems.map((l) => [l.name, l.amount])).toEqual([
      ['Usage all_year tier 1: 11.828 ccf x $4.86/ccf (18/18 days in January)', 57.48],
      ['Usage all_year tier 2: 3.172 ccf x $5.94/ccf (18/18 days in January)', 18.84],
      ['Service charge: $11.8/month x 18/30.4375 months (18/18 days in January)', 6.98],
    ]);
    expect(bill.totalCostCents).toBe(8330);
    expect(bill.assumptions).toContain(
      'billing period of 18 days is no whole number of months (a monthly read is 25 to 35 days): monthly charges (fixed, minimum and demand) and usage blocks x 18/30.4375 = 0.5914',
    );
  });

  it('a calendar month of 28 or 31 days, and a 30-day read across two months, price as the month does', () => {
    // 20 x 4.86 = 97.20; 10 x 5.94 = 59.40; 11.80: 168.40.
    for (const month of [1, 2]) expect(calculateBill(water, { usageKwh: 30, month }, shapes).totalCostCents).toBe(16840);
    const january = lines(piecesOf(water, [1, 31]), 30);
    expect(january.lineItems).toEqual(
      calculateBill(water, { usageKwh: 30, month: 1 }, shapes).lineItems.map((l) => ({ ...l, name: `${l.name} (31/31 days in January)` })),
    );
    expect(lines(piecesOf(water, [2, 28]), 30).totalCostCents).toBe(16840);
    expect(lines(piecesOf(water, [9, 15], [10, 15]), 30).totalCostCents).toBe(16840);
  });

  it('a charge the pieces share is rounded once: $9.91 over 15 + 15 days is 4.96 + 4.95, not 4.96 + 4.96', () => {
    const fee = tariffOf('water', 'kgal', { fixed_charges: [{ name: 'Flat fee', amount: 9.91, frequency: 'monthly' }] });
    const bill = lines(piecesOf(fee, [9, 15], [10, 15]), 0);
    expect(bill.lineItems.map((l) => l.amount)).toEqual([4.96, 4.95]);
    expect(bill.totalCostCents).toBe(991);
  });

  it('demand charges bill the months too; per-day charges the days', () => {
    // Quarter: 100 kW x $10 x 3 = 3,000.00; 90 days x $0.50 = 45.00; 3,000 kWh x $0.10 = 300.00.
    const quarter = lines(piecesOf(demand, [1, 31], [2, 28], [3, 31]), 3000, 100);
    expect(quarter.summary).toMatchObject({ demandCharge: 3000, fixedCharge: 45, energyCharge: 300 });
    expect(quarter.lineItems[1]!.name).toBe('Facility demand: 100 kW x $10/kW x 3 months (31/90 days in January)');
    // 18 days: 100 kW x $10 x 288/487 = 591.3758 -> 591.38; 18 x $0.50 = 9.00.
    const short = lines(piecesOf(demand, [1, 18]), 1000, 100);
    expect(short.summary).toMatchObject({ demandCharge: 591.38, fixedCharge: 9, energyCharge: 100 });
    // A 30-day read across September and October: one month of demand, 30 days of the daily charge (was 15 + 15.5 days).
    const month = lines(piecesOf(demand, [9, 15], [10, 15]), 1000, 100);
    expect(month.summary).toMatchObject({ demandCharge: 1000, fixedCharge: 15, energyCharge: 100 });
  });
});
