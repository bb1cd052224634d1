/**
 * pricePeriod (issue 48 item 5): a billing period priced on the tariff versions in force over it, or
 * the PricingError that says why not. Amounts hand-computed.
 */
import type { Tariff, UtilityType } from '../tariffs/tariff.model';
import type { RatesInput } from '../tariffs/custom/rates.parse';
import { parsedRates, tariffOf as fixtureTariff } from '../tariffs/tariff.fixtures';
import { bundledLoadShapes } from './load-shapes';
import { pricePeriod, type PeriodToPrice } from './price-period';
import { allYear } from '../../../test/fixtures/rates-tariff';

const shapes = bundledLoadShapes();

function tariffOf(id: string, type: UtilityType, unit: string, rates: RatesInput, effectiveDate = '2024-01-01'): Tariff {
  return fixtureTariff({ id, name: `Rate ${id}`, effectiveDate, structure: parsedRates(rates, type, unit), utilityType: type, unit });
}

/** $0.12/kWh, $10 a month. */
const flat = tariffOf('ct_flat', 'electric', 'kWh', {
  energy_rates: [{ ...allYear, rate_per_kwh: 0.12 }],
  fixed_charges: [{ name: 'Customer charge', amount: 10, frequency: 'monthly' }],
});
/** $0.10/kWh, $10 per kW of the month's maximum demand, $0.50 a day. */
const demand = tariffOf('ct_demand', 'electric', 'kWh', {
  energy_rates: [{ ...allYear, rate_per_kwh: 0.1 }],
  demand_rates: [{ period: 'all_year', months: allYear.months, type: 'facility', rate_per_kw: 10 }],
  fixed_charges: [{ name: 'Basic charge', amount: 0.5, frequency: 'daily' }],
});

/** One version of `tariff` over the whole period. */
const over = (tariff: Tariff, start: string, end: string): Pick<PeriodToPrice, 'period' | 'spans'> => ({
  period: { start, end },
  spans: [{ tariff, from: start, to: end }],
});

const lines = (input: PeriodToPrice) => {
  const result = pricePeriod(input, shapes);
  if (!result.ok) throw new Error(result.error.message);
  return result.period;
};

describe('pricePeriod', () => {
  it('a flat tariff over 30 days across two months: one month of charges, each line shared by days', () => {
    // June 16 to July 15 is 30 days, a monthly read: 500 kWh x $0.12 = 60.00 and one $10 month, 15/30 in each month.
    const priced = lines({ ...over(flat, '2025-06-16', '2025-07-15'), usage: { kwh: 500 } });
    expect(priced.bill.lineItems.map((i) => [i.category, i.name, i.amount])).toEqual([
      ['energy', 'Energy all_year: 500 kWh x $0.12/kWh (15/30 days in June)', 30],
      ['fixed', 'Customer charge: $10/month (15/30 days in June)', 5],
      ['energy', 'Energy all_year: 500 kWh x $0.12/kWh (15/30 days in July)', 30],
      ['fixed', 'Customer charge: $10/month (15/30 days in July)', 5],
    ]);
    expect(priced.bill.totalCostCents).toBe(7000);
    expect(priced.usage).toBe(500);
    expect(priced.tariff).toBe(flat);
    expect(priced.bill.assumptions).toContain('billing period of 30 days prorated by days: 15 in June, 15 in July');
    // The same period with 600 kWh: 72.00 + 10.00; on the demand tariff without a demand, nothing.
    expect(priced.totalCentsWith({ usage: 600 })).toBe(8200);
    expect(priced.totalCentsOn(demand)).toBeNull();
  });

  it('a demand tariff over April: energy, demand for one month, the daily charge for 30 days', () => {
    // 1,000 kWh x $0.10 = 100.00; 20 kW x $10 = 200.00; 30 days x $0.50 = 15.00: 315.00.
    const priced = lines({ ...over(demand, '2025-04-01', '2025-04-30'), usage: { kwh: 1000 }, demandKw: 20 });
    expect(priced.bill.summary).toMatchObject({ energyCharge: 100, demandCharge: 200, fixedCharge: 15 });
    expect(priced.bill.totalCostCents).toBe(31500);
    // 25 kW: 100.00 + 250.00 + 15.00.
    expect(priced.totalCentsWith({ demandKw: 25 })).toBe(36500);
  });

  it('a demand tariff without a demand is the engine refusal, as a value', () => {
    const result = pricePeriod({ ...over(demand, '2025-04-01', '2025-04-30'), usage: { kwh: 1000 } }, shapes);
    expect(result).toEqual({
      ok: false,
      error: { code: 'demand_required', message: 'demand_kw required for demand tariffs', field: 'demand_kw' },
    });
  });

  it('a period whose first days no version covers has no tariff in force', () => {
    const october = tariffOf('ct_new', 'electric', 'kWh', { energy_rates: [{ ...allYear, rate_per_kwh: 0.12 }] }, '2025-10-01');
    const result = pricePeriod(
      {
        period: { start: '2025-09-16', end: '2025-10-15' },
        spans: [{ tariff: october, from: '2025-10-01', to: '2025-10-15' }],
        usage: { kwh: 500 },
      },
      shapes,
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'no_tariff_in_force',
        field: 'period_start',
        message: 'tariff ct_new has no version in force on 2025-09-16: its first takes effect 2025-10-01',
      },
    });
    expect(pricePeriod({ period: { start: '2025-09-16', end: '2025-10-15' }, spans: [], usage: { kwh: 500 } }, shapes)).toEqual({
      ok: false,
      error: { code: 'no_tariff_in_force', field: 'period_start', message: 'no tariff is in force on 2025-09-16' },
    });
  });

  it('refuses a period longer than a quarter, and usage that does not fit the tariff', () => {
    // January 1 to April 3, 2025: 31 + 28 + 31 + 3 = 93 days.
    expect(pricePeriod({ ...over(flat, '2025-01-01', '2025-04-03'), usage: { kwh: 500 } }, shapes)).toEqual({
      ok: false,
      error: { code: 'period_invalid', field: 'period_end', message: 'a billing period is at most 92 days (this one has 93)' },
    });
    expect(pricePeriod({ ...over(flat, '2025-04-01', '2025-04-30'), usage: { quantity: 12, unit: 'kgal' } }, shapes)).toMatchObject({
      ok: false,
      error: { code: 'usage_invalid', field: 'usage' },
    });
  });
});
