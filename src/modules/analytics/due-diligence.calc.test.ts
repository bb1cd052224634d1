import { annualBillCents, annualConsumption, averageRateAnnualCents, cheapestAndMedian, latestEndDate } from './due-diligence.calc';
import { comparableSqftRange, comparableUnitRange, eligibilityLoad, estimatedCosts, monthlyUsage } from './due-diligence.calc';
import { noiImpact, latestRevisions, tariffExclusion, type EligibilityTariff } from './due-diligence.calc';
import { buildResidentialUsage, residentialUsage } from './residential-usage';

describe('due diligence model (README "Due diligence")', () => {
  it('residential: one EIA-861 average customer per unit, each unit billed; other types: sqft x 14.6 kWh', () => {
    expect(annualConsumption({ propertyType: 'residential', unitCount: 24, sqft: null, residentialKwhPerCustomer: 6572.789 })).toEqual({
      perMeterMilli: 6_572_789,
      meters: 24,
    });
    expect(annualConsumption({ propertyType: 'commercial', unitCount: 3, sqft: 20_000, residentialKwhPerCustomer: 1 })).toEqual({
      perMeterMilli: 292_000_000,
      meters: 1,
    });
    expect(() => annualConsumption({ propertyType: 'industrial', unitCount: 1, sqft: null, residentialKwhPerCustomer: 1 })).toThrow(
      RangeError,
    );
  });

  it('EIA-861 average: residential MWh x 1000 / customers of the utility, else of the state, else national', () => {
    const table = buildResidentialUsage([
      { utility_number: '7265', state: 'MI', residential_sales_mwh: '16570', residential_customers: '2521' },
      { utility_number: '1', state: 'MI', residential_sales_mwh: '100', residential_customers: '10' },
      { utility_number: '2', state: 'OH', residential_sales_mwh: '0', residential_customers: '0' },
      { utility_number: '3', state: 'OH', residential_sales_mwh: '.', residential_customers: '5' },
      { utility_number: '4', state: 'TX', residential_sales_mwh: '300', residential_customers: '20' },
    ]);
    // 16,570,000 kWh / 2,521 = 6,572.7886 -> 6,572.789 (to the Wh)
    expect(residentialUsage(table, '7265', 'MI')).toEqual({ kwhPerCustomer: 6572.789, basis: 'utility' });
    // MI: (16570 + 100) MWh / 2531 customers = 6,586,329.51 Wh -> 6,586,330
    expect(residentialUsage(table, '999', 'MI')).toEqual({ kwhPerCustomer: 6586.33, basis: 'state' });
    // OH has no usable row: national = (16570 + 100 + 300) MWh / (2521 + 10 + 20) customers = 16,970,000 / 2,551 kWh
    expect(residentialUsage(table, '2', 'OH')).toEqual({ kwhPerCustomer: 6652.293, basis: 'national' });
  });

  it("spreads the year over months by the shape's monthly shares exactly; demand = month kWh x peak hourly share", () => {
    const shares = [0.1, 0.05, 0.05, 0.05, 0.05, 0.1, 0.15, 0.15, 0.1, 0.05, 0.05, 0.1];
    const hours = Array.from({ length: 12 }, (_, i) => ({ weekday: [0.001, 0.002 * (i + 1)], weekend: [0.003] }));
    const months = monthlyUsage(12_000_000, shares, hours);
    expect(months.map((x) => x.usageMilli)).toEqual([
      1_200_000, 600_000, 600_000, 600_000, 600_000, 1_200_000, 1_800_000, 1_800_000, 1_200_000, 600_000, 600_000, 1_200_000,
    ]);
    expect(months.reduce((s, x) => s + x.usageMilli, 0)).toBe(12_000_000);
    // January: 1,200 kWh x max(0.001, 0.002, 0.003) = 3.6 kW; July: 1,800 kWh x 0.014 = 25.2 kW
    expect(months[0]).toEqual({ month: 1, usageMilli: 1_200_000, demandMilli: 3600 });
    expect(months[6]!.demandMilli).toBe(25_200);
    // no shape: days of a 365-day year
    expect(monthlyUsage(365_000, undefined, undefined).map((x) => x.usageMilli)).toEqual(
      [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].map((d) => d * 1000),
    );
  });

  it('a tariff the engine cannot price in some month is left out', () => {
    const months = monthlyUsage(12_000, undefined, undefined);
    expect(annualBillCents(months, (x) => x.month * 100)).toBe(7800);
    expect(annualBillCents(months, (x) => (x.month === 7 ? null : 1))).toBeNull();
  });

  it('median is the lower middle tariff by annual cost (then id); best the cheapest', () => {
    const priced = [
      { id: 'd', name: 'D', annualCents: 400 },
      { id: 'b', name: 'B', annualCents: 200 },
      { id: 'a', name: 'A', annualCents: 200 },
      { id: 'c', name: 'C', annualCents: 300 },
    ];
    expect(cheapestAndMedian(priced)).toEqual({ cheapest: priced[2], median: priced[1] });
    expect(cheapestAndMedian(priced.slice(0, 3))?.median.id).toBe('b');
    expect(cheapestAndMedian([])).toBeNull();
  });

  it('comparables: unit_count within +-50 %, inclusive', () => {
    expect(comparableUnitRange(24)).toEqual([12, 36]);
    expect(comparableUnitRange(5)).toEqual([3, 7]);
    expect(comparableUnitRange(1)).toEqual([1, 1]);
  });

  it('README example figures: $19,794.00 a year, 24 units, 21,000 sqft, $360,000 revenue', () => {
    // Residential Service: $824.75 a unit (its twelve monthly bills), x 24
    expect(estimatedCosts(82_475 * 24, 24, 21_000)).toEqual({
      annual_energy_cost: 19794,
      monthly_energy_cost: 1649.5,
      cost_per_unit: 824.75,
      cost_per_sqft: 0.9426,
    });
    // 19,794.00 / 360,000 = 5.498 % -> 5.5
    expect(noiImpact(1_979_400, 360000)).toEqual({ annual_revenue: 360000, energy_pct_of_revenue: 5.5, estimated_noi_impact: -19794 });
    expect(noiImpact(1_979_400, null)).toEqual({ annual_revenue: null, energy_pct_of_revenue: null, estimated_noi_impact: -19794 });
    expect(noiImpact(100, 0).energy_pct_of_revenue).toBeNull();
    expect(estimatedCosts(100, 3, null)).toEqual({
      annual_energy_cost: 1,
      monthly_energy_cost: 0.08,
      cost_per_unit: 0.33,
      cost_per_sqft: null,
    });
  });

  it('comparables: sqft within +-50 %, inclusive (commercial, industrial, mixed use)', () => {
    expect(comparableSqftRange(10_000)).toEqual([5_000, 15_000]);
    // 10,001 / 2 = 5,000.5 -> 5,001; 30,003 / 2 = 15,001.5 -> 15,001
    expect(comparableSqftRange(10_001)).toEqual([5_001, 15_001]);
    expect(comparableSqftRange(1)).toEqual([1, 1]);
  });
});

describe('due diligence eligibility and serving utility (README "Due diligence")', () => {
  const open = { demandKwMin: null, demandKwMax: null, usageKwhMin: null, usageKwhMax: null, voltageCategory: null, phaseWiring: null };
  const tariff = (over: Partial<EligibilityTariff> = {}): EligibilityTariff => ({
    name: 'General Service',
    sector: 'commercial',
    purpose: 'general',
    voltage: null,
    serviceType: 'bundled',
    applicability: open,
    ...over,
  });

  it('eligible: the sector, general purpose, secondary or unstated voltage, bundled or delivery only, applicability admitting the load', () => {
    expect(tariffExclusion(tariff(), 'commercial', 12_166.667, 40)).toBeNull();
    expect(tariffExclusion(tariff({ voltage: 'secondary', serviceType: 'delivery_only' }), 'commercial', 12_166.667, 40)).toBeNull();
    expect(tariffExclusion(tariff({ sector: 'residential' }), 'commercial', 100, 1)).toBe('sector');
    expect(tariffExclusion(tariff({ purpose: 'lighting' }), 'commercial', 100, 1)).toBe('purpose');
    expect(tariffExclusion(tariff({ name: 'GS-1 General Service Non-Demand Single Phase; Closed Rate' }), 'commercial', 100, 1)).toBe(
      'closed',
    );
    expect(tariffExclusion(tariff({ voltage: 'primary' }), 'commercial', 100, 1)).toBe('voltage');
    expect(tariffExclusion(tariff({ voltage: 'transmission' }), 'commercial', 100, 1)).toBe('voltage');
    expect(tariffExclusion(tariff({ serviceType: 'supply_only' }), 'commercial', 100, 1)).toBe('service_type');
    // a 15,000 kWh minimum: 12,166.667 kWh a month is below it; a 50 kW maximum: a 55 kW peak is above it
    expect(tariffExclusion(tariff({ applicability: { ...open, usageKwhMin: 15_000 } }), 'commercial', 12_166.667, 40)).toBe(
      'applicability',
    );
    expect(tariffExclusion(tariff({ applicability: { ...open, demandKwMax: 50 } }), 'commercial', 12_166.667, 55)).toBe('applicability');
    expect(tariffExclusion(tariff({ applicability: { ...open, demandKwMax: 50 } }), 'commercial', 12_166.667, 50)).toBeNull();
  });

  it('prices only what the building is positively eligible for: the rule rate analysis recommends by (issue 45)', () => {
    // A 50,000 sqft office peaks far above what single-phase service carries; schools' rates are for schools.
    expect(tariffExclusion(tariff({ name: 'Small General Service Single Phase' }), 'commercial', 60_000, 180)).toBe('restriction');
    expect(
      tariffExclusion(tariff({ name: 'General Service', description: 'Available only to public schools.' }), 'commercial', 60_000, 180),
    ).toBe('restriction');
    // Nothing says "Rate 4" is a general rate, and a small building's phase is unknown: neither is priced.
    expect(tariffExclusion(tariff({ name: 'Rate 4' }), 'commercial', 2_000, 8)).toBe('review');
    expect(tariffExclusion(tariff({ name: 'Small Commercial Three Phase' }), 'commercial', 2_000, 8)).toBe('review');
    expect(tariffExclusion(tariff({ name: 'Small Commercial Three Phase' }), 'commercial', 60_000, 180)).toBeNull();
  });

  it('the load eligibility is judged on: the average month (kWh, to the Wh) and the largest monthly demand', () => {
    const months = [
      { month: 1, usageMilli: 1_000_000, demandMilli: 3_000 },
      { month: 2, usageMilli: 1_000_001, demandMilli: 4_500 },
      ...Array.from({ length: 10 }, (_, i) => ({ month: i + 3, usageMilli: 1_000_000, demandMilli: 1_000 })),
    ];
    // 12,000,001 Wh / 12 = 1,000,000.08 -> 1,000,000 Wh = 1,000 kWh; peak 4.5 kW
    expect(eligibilityLoad(months)).toEqual({ monthlyKwh: 1000, peakKw: 4.5 });
  });

  // Issue 45 replaced the two serving-utility rules tested here ("most eligible tariffs", then "own rate, listed for the ZIP,
  // customers in the state"): due diligence prices the ZIP code's primary utility (utilities/serving.ts, serving.test.ts).
  it('latest revisions: a superseded tariff and older revisions of one name are left out; name order', () => {
    const t = (
      id: string,
      name: string,
      effectiveDate: string | null,
      expirationDate: string | null,
      supersededBy: string | null = null,
    ) => ({ id, name, effectiveDate, expirationDate, supersededBy });
    const list = [
      t('a1', 'GS-1 (Secondary)', '2012-01-01', '2014-12-31'),
      t('a2', 'gs-1 secondary', '2015-01-01', '2018-12-31'),
      t('b1', 'Residential', '2016-06-01', '2019-05-31', 'b2'),
      t('b2', 'Residential Service', '2019-06-01', '2022-05-31'),
      t('c1', 'Lighting', null, '2017-01-01'),
      t('c2', 'Lighting', null, '2018-01-01'),
    ];
    expect(latestRevisions(list).map((x) => x.id)).toEqual(['c2', 'b2', 'a2']); // name order by code unit: capitals first
    // a successor the list does not hold does not hide its predecessor
    expect(latestRevisions([t('b1', 'Residential', '2016-06-01', '2019-05-31', 'elsewhere')]).map((x) => x.id)).toEqual(['b1']);
    expect(latestEndDate(list)).toBe('2022-05-31');
    expect(latestEndDate([t('x', 'X', null, null)])).toBeNull();
  });

  it('a year at an average rate: Wh x meters x $/kWh, rounded once to the cent', () => {
    // 146,000 kWh x $0.077005 = $11,242.73 (exact)
    expect(averageRateAnnualCents(146_000_000, 1, 0.077005)).toBe(1_124_273);
    // 4 x 6,572.789 kWh x $0.134164 = $3,527.3266... -> 352,733 cents
    expect(averageRateAnnualCents(6_572_789, 4, 0.134164)).toBe(352_733);
    // half a cent rounds up: 5 Wh x $1/kWh = 0.5 cent -> 1
    expect(averageRateAnnualCents(5, 1, 1)).toBe(1);
    expect(averageRateAnnualCents(0, 10, 0.2)).toBe(0);
  });
});
