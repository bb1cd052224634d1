import { annualCostWithoutBills, meterEstimateTariff } from './estimate';

const meter = (tariffId: string | null, over: Partial<{ utilityType: string; isActive: boolean; supplyTariffId: string | null }> = {}) => ({
  utilityType: 'electric',
  isActive: true,
  tariffId,
  supplyTariffId: null,
  ...over,
});

describe('meterEstimateTariff (analytics README "Actual and estimated cost")', () => {
  it("the one tariff the active electric meters name, with the meter's supply contract", () => {
    expect(meterEstimateTariff([meter('C1', { supplyTariffId: 'S' }), meter(null), meter('C1', { supplyTariffId: 'S' })])).toEqual({
      tariffId: 'C1',
      supplyTariffId: 'S',
    });
  });

  it('inactive and other meters do not count; different tariffs (or supply contracts) leave none', () => {
    expect(meterEstimateTariff([meter('C1'), meter('C3', { isActive: false }), meter('W', { utilityType: 'water' })])).toEqual({
      tariffId: 'C1',
      supplyTariffId: null,
    });
    expect(meterEstimateTariff([meter('C1'), meter('C3')])).toBeNull();
    expect(meterEstimateTariff([meter('C1'), meter('C1', { supplyTariffId: 'S' })])).toBeNull();
    expect(meterEstimateTariff([meter(null)])).toBeNull();
  });
});

describe('annualCostWithoutBills', () => {
  it('a property without bills: its estimate, through the one annual-cost rule', () => {
    expect(annualCostWithoutBills({ annualEnergyCost: 14766.48, monthlyUsageKwh: 10000 })).toBe(1476648);
    expect(annualCostWithoutBills({ annualEnergyCost: null, monthlyUsageKwh: 10000 })).toBeNull();
  });
});
