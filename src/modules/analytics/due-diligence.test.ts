import type { Tariff } from '../tariffs/tariff.model';
import { buildAverageRates } from './average-rates';
import { createDueDiligence, type DueDiligenceDeps } from './due-diligence';
import type { MonthlyBillTotal } from '../properties/energy-cost';
import type { ServingUtility } from './due-diligence.repository';
import { buildResidentialUsage } from './residential-usage';
import { dueDiligenceBody } from './schemas';

/**
 * The due-diligence use case on hand-made reference rows and a stand-in bill engine, so every number is
 * worked out by hand. ZIP codes are real (their state comes from the bundled GeoNames table): 19103 PA,
 * 75201 TX, 98101 WA, 10001 NY.
 *
 * Without a load shape the year is spread by days per month and demand is 0: a meter of 3,650 kWh a year
 * uses 10 kWh a day (310 kWh in January). The stand-in bill: 100 cents a month + kWh x the tariff's energy
 * price, + kWh x the supply price on a delivery-only tariff, each to the cent.
 */

type Cell = number | string;
function sales(
  utility: string,
  state: string,
  part: 'A' | 'B' | 'C' | 'D',
  res: [Cell, Cell],
  com: [Cell, Cell],
  customers = 1,
): Record<string, string> {
  return {
    utility_number: utility,
    state,
    part,
    total_customers: String(customers),
    residential_revenues_thousand_dollars: String(res[0]),
    residential_sales_mwh: String(res[1]),
    commercial_revenues_thousand_dollars: String(com[0]),
    commercial_sales_mwh: String(com[1]),
    industrial_revenues_thousand_dollars: '.',
    industrial_sales_mwh: '.',
  };
}

const RATES = buildAverageRates(
  [
    // PA: utility 100 (delivery only) and 101; part B (supply) 0.08 residential, 0.06 commercial
    sales('100', 'PA', 'A', [120, 1000], [100, 1000], 500),
    sales('101', 'PA', 'A', [150, 1000], [110, 1000], 50),
    sales('90', 'PA', 'B', [80, 1000], [60, 1000]),
    // TX: no part B; part D 0.115 / 0.077; Oncor (44372) has no row
    sales('15847', 'TX', 'D', [115, 1000], [77, 1000]),
    // WA: 200 has more customers, 300 is the one the ZIP table lists for 98101
    sales('200', 'WA', 'A', [110, 1000], [90, 1000], 1000),
    sales('300', 'WA', 'A', [100, 1000], [80, 1000], 10),
    // NJ: 400 (the ZIP table also lists it for 10001)
    sales('400', 'NJ', 'A', [160, 1000], [120, 1000], 100),
  ],
  [{ zip: '98101', eiaid: '300', service_type: 'Bundled', res_rate: '0.1', comm_rate: '0.08', ind_rate: '0' }],
  [],
);

/** 3,650 kWh per residential customer of 100 and 101; Texas's average 10,000 kWh (Oncor has no rows). */
const USAGE = buildResidentialUsage([
  { utility_number: '100', state: 'PA', residential_sales_mwh: '3650', residential_customers: '1000' },
  { utility_number: '101', state: 'PA', residential_sales_mwh: '3650', residential_customers: '1000' },
  { utility_number: '999', state: 'TX', residential_sales_mwh: '10000', residential_customers: '1000' },
  { utility_number: '200', state: 'WA', residential_sales_mwh: '5000', residential_customers: '1000' },
  { utility_number: '300', state: 'WA', residential_sales_mwh: '5000', residential_customers: '1000' },
]);

const OPEN = { demandKwMin: null, demandKwMax: null, usageKwhMin: null, usageKwhMax: null, voltageCategory: null, phaseWiring: null };

/** The energy price of each stand-in tariff, $/kWh. */
const ENERGY = new Map<string, number>();
function tariff(id: string, utilityId: string, state: string, energy: number, over: Partial<Tariff> = {}): Tariff {
  ENERGY.set(id, energy);
  return {
    // Issue 45: a name that shows a general-service rate ("Tariff x" shows none, and is not priced since).
    id,
    name: `General Service ${id}`,
    utilityId,
    utilityName: `Utility ${utilityId}`,
    state,
    sector: 'residential',
    serviceType: 'bundled',
    voltage: null,
    purpose: 'general',
    classNote: null,
    applicability: OPEN,
    effectiveDate: '2024-01-01',
    expirationDate: null,
    ...over,
  } as Tariff;
}

const bill: MonthlyBillTotal = (t, input) => {
  const energy = ENERGY.get(t.id);
  if (energy === undefined) return null; // a tariff the engine cannot price
  const supply =
    t.serviceType === 'delivery_only' && input.supplyRatePerKwh ? Math.round(input.usageKwh * input.supplyRatePerKwh * 100) : 0;
  return 100 + Math.round(input.usageKwh * energy * 100) + supply;
};

/** `utilities` in the order of GET /utilities/by-zip (the primary first); the tariffs of every utility, each asked for by utility. */
function setup(utilities: ServingUtility[], tariffs: Tariff[], county: string | null = 'Test') {
  const comparables: unknown[] = [];
  const asked: string[] = [];
  const deps: DueDiligenceDeps = {
    repo: {
      comparableCount: async (...a) => {
        comparables.push(['units', ...a]);
        return 7;
      },
    },
    comparableCountBySqft: async (...a) => {
      comparables.push(['sqft', ...a]);
      return 5;
    },
    now: () => new Date('2026-11-15T12:00:00Z'),
    servingUtilities: async () => ({ county, utilities }),
    utilityTariffs: async (id, sector, state) => {
      asked.push(id);
      return tariffs.filter((t) => t.utilityId === id && t.sector === sector && t.state === state);
    },
    monthlyBill: bill,
    loadShapes: () => ({ defaults: {}, shapes: {} }),
    residentialUsage: () => USAGE,
    averageRates: () => RATES,
  };
  return { dueDiligence: createDueDiligence(deps), comparables, asked };
}

const u = (id: string, state: string | null, name = `Utility ${id}`, estimate: number | null = null): ServingUtility => ({
  id,
  name,
  state,
  customersServed: null,
  estimatedCustomersInCounty: estimate,
  markedPrimary: false,
});
const request = (over: Record<string, unknown>) =>
  dueDiligenceBody.parse({
    address: '1 Main St',
    city: 'Philadelphia',
    state: 'PA',
    zip_code: '19103',
    unit_count: 2,
    property_type: 'residential',
    ...over,
  });

describe('due diligence: basis, serving utility and assumptions', () => {
  it("delivery-only tariffs priced with the state's part-B supply price; special purpose, primary voltage and supply-only left out", async () => {
    const { dueDiligence, comparables } = setup(
      [u('100', 'PA')],
      [
        tariff('d1', '100', 'PA', 0.03, { serviceType: 'delivery_only', effectiveDate: '2015-01-01', classNote: 'voltage assumed' }),
        tariff('d2', '100', 'PA', 0.05, { serviceType: 'delivery_only' }),
        tariff('light', '100', 'PA', 0.01, { purpose: 'lighting' }),
        tariff('prim', '100', 'PA', 0.01, { voltage: 'primary' }),
        tariff('supply', '100', 'PA', 0.01, { serviceType: 'supply_only' }),
      ],
    );
    const res = await dueDiligence(request({}));
    // a meter: 3,650 kWh; d1 = 12 x 100 + 3,650 x (3 + 8) cents = 41,350; x 2 units = 82,700 ($827.00)
    //          d2 = 1,200 + 3,650 x (5 + 8) = 48,650; x 2 = 97,300. Median of two = the lower = d1 = cheapest.
    expect(res).toMatchObject({
      serving_utility: { id: 100, name: 'Utility 100' },
      utility_choice: {
        reason:
          'Utility 100 is the only utility serving ZIP code 19103 in PA; its delivery-only residential tariffs are priced. ' +
          "No other utility's tariffs are priced.",
        county: 'Test',
        estimated_customers_in_county: null,
        other_utilities: [],
      },
      catalog_current: true,
      latest_tariff_end_date: null,
      estimated_costs: { annual_energy_cost: 827, monthly_energy_cost: 68.92, cost_per_unit: 413.5, cost_per_sqft: null },
      available_tariffs: 2,
      best_tariff: { name: 'General Service d1', estimated_annual_cost: 827 },
      comparable_properties: 7,
      basis: {
        kind: 'tariffs',
        source: 'U.S. Utility Rate Database (URDB, OpenEI/NREL)',
        year: 2015,
        service_type: 'delivery_only',
        rate_per_kwh: null,
        supply: {
          rate_per_kwh: 0.08,
          year: 2018,
          source: 'EIA Form 861, sales to ultimate customers, energy-only sales by retail suppliers (part B, revenue / sales) in the state',
        },
      },
    });
    expect(res.assumptions).toEqual([
      'Consumption: 2 units x 3,650 kWh a year, the EIA-861 2018 average residential customer (residential sales / customers) of Utility 100; ' +
        'each unit is its own metered customer',
      'Months and demand: no residential load shape, so the year is spread by days per month and demand is not modelled',
      'Not eligible: 3 current residential tariffs of Utility 100 in PA (1 special purpose (lighting, standby, interruptible, ...); ' +
        '1 primary or transmission voltage; 1 supply only)',
      'Priced on the 2 eligible delivery-only residential tariffs of Utility 100 in PA (current, general purpose, secondary or unstated voltage, ' +
        'applicability admitting 304.167 kWh a month and a 0 kW peak per meter), month by month by the bill engine: estimated_costs use the ' +
        'median "General Service d1", best_tariff the cheapest "General Service d1"',
      "Supply: the tariffs are delivery only, so each month's kWh is added at $0.08/kWh, the PA residential average of EIA Form 861, sales to " +
        "ultimate customers, energy-only sales by retail suppliers (part B, revenue / sales) in the state (2018): a retail supplier's average price",
      'Median and cheapest tariff "General Service d1": the tariff\'s rates took effect on 2015-01-01, more than 5 years ago: the utility\'s current rates may differ',
      'Median and cheapest tariff "General Service d1": voltage assumed',
    ]);
    expect(comparables).toEqual([['units', 'PA', 'residential', 1, 3]]);
  });

  it("the primary utility's bundled tariffs before its delivery-only ones", async () => {
    const { dueDiligence } = setup(
      [u('100', 'PA')],
      [
        tariff('d1', '100', 'PA', 0.03, { serviceType: 'delivery_only' }),
        tariff('d2', '100', 'PA', 0.05, { serviceType: 'delivery_only' }),
        tariff('b1', '100', 'PA', 0.1),
      ],
    );
    const res = await dueDiligence(request({}));
    // 2 x (1,200 + 3,650 x 10) = 75,400 cents
    expect(res).toMatchObject({
      serving_utility: { id: 100 },
      available_tariffs: 1,
      estimated_costs: { annual_energy_cost: 754 },
      basis: { kind: 'tariffs', service_type: 'bundled', supply: null, year: 2024 },
    });
    expect(res.assumptions).toContain('2 eligible delivery-only tariffs of Utility 100 not priced: bundled tariffs preferred');
  });

  it('never another utility: the primary is priced although the second one has more eligible tariffs (issue 45 replaced "most eligible tariffs")', async () => {
    // Before issue 45 the utility with the most eligible bundled tariffs (101) was priced; now the ZIP code's primary (100).
    const { dueDiligence, asked } = setup(
      [u('100', 'PA', 'Utility 100', 9_000), u('101', 'PA', 'Utility 101', 1_000)],
      [tariff('b0', '100', 'PA', 0.2), tariff('b1', '101', 'PA', 0.1), tariff('b2', '101', 'PA', 0.11), tariff('b3', '101', 'PA', 0.12)],
    );
    const res = await dueDiligence(request({}));
    // 2 x (1,200 + 3,650 x 20) = 148,400 cents
    expect(res).toMatchObject({
      serving_utility: { id: 100, name: 'Utility 100' },
      available_tariffs: 1,
      estimated_costs: { annual_energy_cost: 1484 },
    });
    expect(asked).toEqual(['100']);
    expect(res.utility_choice).toEqual({
      reason:
        'Utility 100 is the primary utility of ZIP code 19103: of the 2 utilities serving it in PA, it has the most estimated retail ' +
        'customers in its county (Test, PA), 9,000, against Utility 101 1,000 (EIA-861 2018 customers in the state spread over each ' +
        "utility's counties by their number of ZIP codes; GET /utilities/by-zip/19103 gives this order); its bundled residential " +
        "tariffs are priced. No other utility's tariffs are priced.",
      county: 'Test',
      estimated_customers_in_county: 9000,
      other_utilities: [{ id: 101, name: 'Utility 101', estimated_customers_in_county: 1000 }],
    });
  });

  it('no current tariff: catalog_current false, the latest end date, and the latest revision of each schedule priced', async () => {
    const { dueDiligence } = setup(
      [u('101', 'PA')],
      [
        // two revisions of "Residential Service" and one of "Residential TOU", all expired
        tariff('rs-2014', '101', 'PA', 0.3, { name: 'Residential Service', effectiveDate: '2014-01-01', expirationDate: '2016-12-31' }),
        tariff('rs-2017', '101', 'PA', 0.1, { name: 'Residential service', effectiveDate: '2017-01-01', expirationDate: '2021-12-31' }),
        tariff('tou', '101', 'PA', 0.12, { name: 'Residential TOU', effectiveDate: '2015-06-01', expirationDate: '2019-05-31' }),
        tariff('other-state', '101', 'NJ', 0.05, { expirationDate: '2025-01-01' }),
      ],
    );
    const res = await dueDiligence(request({}));
    // rs-2017: 2 x (1,200 + 3,650 x 10) = 75,400; tou: 2 x (1,200 + 3,650 x 12) = 90,000; median of two = the lower = rs-2017
    expect(res).toMatchObject({
      serving_utility: { id: 101 },
      catalog_current: false,
      latest_tariff_end_date: '2021-12-31',
      available_tariffs: 2,
      estimated_costs: { annual_energy_cost: 754 },
      best_tariff: { name: 'Residential service', estimated_annual_cost: 754 },
      basis: { kind: 'tariffs', service_type: 'bundled', year: 2017 },
    });
    expect(res.utility_choice.reason).toBe(
      'Utility 101 is the only utility serving ZIP code 19103 in PA; its latest known bundled residential ' +
        "tariff revisions are priced (none is current). No other utility's tariffs are priced.",
    );
    expect(res.assumptions).toContain(
      'Utility 101 has no current residential tariff in PA in the catalog (URDB): its 3 tariffs expired by ' +
        '2021-12-31, so the latest known revision of each of its 2 schedules is priced; its rates today may differ',
    );
    expect(res.assumptions).toContain(
      'Median and cheapest tariff "Residential service": the tariff expired on 2021-12-31: the utility no longer ' +
        'bills these rates, so its current tariff may cost more or less',
    );
    expect(res.assumptions.some((a) => a.includes('(latest known revisions (none current), general purpose'))).toBe(true);
  });

  it("delivery only where the state has no part B (Texas): the wires utility's average rate, Texas part D", async () => {
    const { dueDiligence } = setup([u('44372', 'TX', 'Oncor')], [tariff('o1', '44372', 'TX', 0.04, { serviceType: 'delivery_only' })]);
    const res = await dueDiligence(request({ state: 'TX', city: 'Dallas', zip_code: '75201', unit_count: 1 }));
    // Oncor has no residential customers in the usage table: Texas's 10,000 kWh; x $0.115 = $1,150.00
    expect(res).toMatchObject({
      serving_utility: { id: 44372, name: 'Oncor' },
      estimated_costs: { annual_energy_cost: 1150 },
      available_tariffs: 0,
      catalog_current: true,
      latest_tariff_end_date: null,
      // best_tariff is never null (SPEC): on an average rate it names the rate (issue 45 replaced null)
      best_tariff: {
        name:
          "No tariff priced: Oncor's average residential rate, $0.115/kWh (EIA Form 861, sales to ultimate customers, full-service sales " +
          'by retail providers (part D, revenue / sales) in the state, 2018)',
        estimated_annual_cost: 1150,
      },
      basis: {
        kind: 'average_rate',
        year: 2018,
        service_type: null,
        rate_per_kwh: 0.115,
        supply: null,
        source: 'EIA Form 861, sales to ultimate customers, full-service sales by retail providers (part D, revenue / sales) in the state',
      },
    });
    expect(res.assumptions[0]).toBe(
      'Consumption: 1 unit x 10,000 kWh a year, the EIA-861 2018 average residential customer (residential sales / ' +
        'customers) of TX (the utility reports no residential customers); each unit is its own metered customer',
    );
    expect(res.assumptions.slice(2)).toEqual([
      "Priced at Oncor's average residential rate, $0.115/kWh (EIA Form 861, sales to ultimate customers, full-service sales by retail providers " +
        '(part D, revenue / sales) in the state, 2018) x 10,000 kWh a year, because its eligible residential tariffs are delivery only ' +
        'and EIA-861 2018 reports no energy-only (part B) sales in TX to price supply',
      'Oncor is a Texas (ERCOT) wires utility: its customers buy energy with delivery from retail providers, so the rate is what those providers ' +
        'charge on average',
    ]);
    // another utility's data (the retail providers'), said in the reason
    expect(res.utility_choice.reason).toBe(
      'Oncor is the only utility serving ZIP code 75201 in TX; it is priced at an average rate, the Texas ' +
        "retail providers' average (Oncor sells no energy) because its eligible residential tariffs are delivery only and EIA-861 2018 reports " +
        "no energy-only (part B) sales in TX to price supply. No other utility's tariffs are priced.",
    );
  });

  it('no eligible tariff: the primary utility\'s average rate (issue 45 replaced "listed for the ZIP, then most customers"); commercial comparables by sqft', async () => {
    const { dueDiligence, comparables } = setup(
      [u('300', 'WA'), u('200', 'WA')],
      [tariff('x', '300', 'WA', 0.1, { sector: 'commercial', applicability: { ...OPEN, demandKwMin: 500 } })],
    );
    const res = await dueDiligence(
      request({
        state: 'WA',
        city: 'Seattle',
        zip_code: '98101',
        property_type: 'commercial',
        sqft: 10_000,
        unit_count: 1,
      }),
    );
    // 300: 80 / 1000 = $0.08/kWh x 146,000 kWh = $11,680.00
    expect(res).toMatchObject({
      serving_utility: { id: 300 },
      estimated_costs: { annual_energy_cost: 11680, cost_per_sqft: 1.168 },
      basis: {
        kind: 'average_rate',
        rate_per_kwh: 0.08,
        source: 'EIA Form 861, sales to ultimate customers (revenue / sales)',
        year: 2018,
      },
      comparable_properties: 5,
    });
    expect(res.assumptions[0]).toBe(
      'Consumption: 10,000 sqft x 14.6 kWh/sqft = 146,000 kWh a year (EIA CBECS 2012, Table C14, electricity per ' +
        'square foot of all buildings), billed as one meter',
    );
    expect(res.assumptions).toContain(
      'Not eligible: 1 current commercial tariff of Utility 300 in WA ' + "(1 applicability not admitting the building's usage or demand)",
    );
    expect(res.best_tariff).toEqual({
      name: "No tariff priced: Utility 300's average commercial rate, $0.08/kWh (EIA Form 861, sales to ultimate customers (revenue / sales), 2018)",
      estimated_annual_cost: 11680,
    });
    expect(comparables).toEqual([['sqft', 'WA', 'commercial', 5_000, 15_000]]);
  });

  it('tariffs the engine cannot price are left out; none left: the average rate, and says why', async () => {
    // Named as a general rate: since issue 45 a tariff whose name shows no general-service rate is not priced at all.
    const unpriceable = { ...tariff('n', '101', 'PA', 0, { name: 'Residential Service' }), id: 'not-priced' };
    const { dueDiligence } = setup([u('101', 'PA')], [unpriceable]);
    const res = await dueDiligence(request({}));
    // 101: 150 / 1000 = $0.15 x 2 x 3,650 kWh = $1,095.00
    expect(res).toMatchObject({ estimated_costs: { annual_energy_cost: 1095 }, basis: { kind: 'average_rate', rate_per_kwh: 0.15 } });
    expect(res.assumptions.slice(2)).toEqual([
      "Priced at Utility 101's average residential rate, $0.15/kWh (EIA Form 861, sales to ultimate customers (revenue / sales), 2018) x 7,300 kWh " +
        'a year, because no eligible residential tariff of Utility 101 could be priced by the bill engine',
      '1 eligible tariff of Utility 101 the bill engine cannot price',
    ]);
  });

  it("the ZIP code's state decides: a ZIP code in PA asked for as NJ is priced in PA, and says so", async () => {
    const { dueDiligence } = setup([u('101', 'PA')], []);
    const res = await dueDiligence(request({ state: 'NJ' }));
    expect(res.serving_utility.id).toBe(101);
    expect(res.assumptions[2]).toBe('ZIP code 19103 is in PA, not NJ: the utilities, tariffs and rates are those of PA');
  });

  it("a utility with no rate of its own in the state: the state's part-A average", async () => {
    const { dueDiligence } = setup([u('555', 'PA')], []);
    const res = await dueDiligence(request({ unit_count: 1 }));
    // PA part A residential: (120 + 150) / 2000 = 0.135; 555 has no usage rows -> PA's: 7,300 MWh / 2,000 = 3,650 kWh -> $492.75
    expect(res).toMatchObject({
      serving_utility: { id: 555 },
      estimated_costs: { annual_energy_cost: 492.75 },
      basis: { rate_per_kwh: 0.135 },
    });
    expect(res.assumptions).toContain(
      "Utility 555 has no residential average rate of its own: the PA average of every utility's bundled (part A) sales is used",
    );
    // the catalog has no tariff of 555: not current, and no end date to give
    expect(res).toMatchObject({ catalog_current: false, latest_tariff_end_date: null });
    expect(res.utility_choice.reason).toContain(
      'it is priced at an average rate, the PA average of every utility (Utility 555 has no rate of its own) ' +
        'because the catalog has no residential tariff of Utility 555 in PA',
    );
  });

  it('404 when no utility serves the ZIP code in its state (the order leaves out a utility with no customer there: serving.test.ts)', async () => {
    const { dueDiligence } = setup([], [tariff('nj', '400', 'NJ', 0.1)]);
    await expect(dueDiligence(request({ state: 'NY', city: 'New York', zip_code: '10001' }))).rejects.toMatchObject({
      status: 404,
      message: 'No utilities found for ZIP code',
    });
  });
});
