import type { Tariff } from '../tariffs/tariff.model';
import { energyPctOfNoi, estimateEnergyCost, type MonthlyBillTotal } from './energy-cost';

const tariff = { id: 't' } as Tariff;

describe('estimateEnergyCost', () => {
  it('sums the 12 monthly bills and averages them to the cent', () => {
    // Summer months (6-9) cost $100.01, others $90.00: 4 x 10001 + 8 x 9000 = 112004 cents; / 12 = 9333.67 -> 9334
    const seen: number[] = [];
    const bill: MonthlyBillTotal = (_t, { month, usageKwh }) => {
      seen.push(month);
      expect(usageKwh).toBe(800);
      return month >= 6 && month <= 9 ? 10001 : 9000;
    };
    expect(estimateEnergyCost(bill, tariff, 800, null)).toEqual({ annualCents: 112004, monthlyCents: 9334 });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('passes demand through and gives null when a month cannot be priced', () => {
    const bill: MonthlyBillTotal = (_t, { demandKw }) => (demandKw === null ? null : 100);
    expect(estimateEnergyCost(bill, tariff, 1, null)).toBeNull();
    expect(estimateEnergyCost(bill, tariff, 1, 5)).toEqual({ annualCents: 1200, monthlyCents: 100 });
  });
});

describe('energyPctOfNoi', () => {
  it('is annual cost over noi in percent, 2 decimals', () => {
    expect(energyPctOfNoi(1476648, 200000)).toBe(7.38); // 14,766.48 / 200,000 = 7.383 %
    expect(energyPctOfNoi(12345, 1000)).toBe(12.35); // 123.45 / 1,000 = 12.345 % -> 12.35 (half away from zero)
  });
  it('is null without a cost, without noi, or with noi 0', () => {
    expect(energyPctOfNoi(null, 1000)).toBeNull();
    expect(energyPctOfNoi(100, null)).toBeNull();
    expect(energyPctOfNoi(100, 0)).toBeNull();
  });
});
