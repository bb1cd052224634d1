import {
  averageRate,
  buildAverageRates,
  bundledAverageRates,
  isTexasWiresUtility,
  listedWithRateForZip,
  nationalAverageRate,
  retailFullServiceRate,
  retailSupplyRate,
  servingUtilityRate,
  stateAverageRate,
  utilityCustomersInState,
  type AverageRate,
} from './average-rates';

const EIA = 'EIA Form 861, sales to ultimate customers (revenue / sales)';
const ZIP23 = 'OpenEI utility rates by ZIP code (2023 edition)';
const ZIP11 = 'OpenEI utility rates by ZIP code (2011 edition)';
const eia = (ratePerKwh: number): AverageRate => ({ ratePerKwh, source: EIA, year: 2018 });
const zip23 = (ratePerKwh: number): AverageRate => ({ ratePerKwh, source: ZIP23, year: 2023 });
const zip11 = (ratePerKwh: number): AverageRate => ({ ratePerKwh, source: ZIP11, year: 2011 });
const PART_B = 'EIA Form 861, sales to ultimate customers, energy-only sales by retail suppliers (part B, revenue / sales) in the state';
const PART_D = 'EIA Form 861, sales to ultimate customers, full-service sales by retail providers (part D, revenue / sales) in the state';
const partB = (ratePerKwh: number): AverageRate => ({ ratePerKwh, source: PART_B, year: 2018 });
const partD = (ratePerKwh: number): AverageRate => ({ ratePerKwh, source: PART_D, year: 2018 });

type Cell = number | string;
/** One EIA-861 sales row; revenue in thousand $, sales in MWh, per sector [revenue, sales]. */
function sales(
  utility: string,
  state: string,
  part: 'A' | 'B' | 'C' | 'D',
  s: { res?: [Cell, Cell]; com?: [Cell, Cell]; ind?: [Cell, Cell] },
  ba = 'BA1',
): Record<string, string> {
  const serviceType = { A: 'Bundled', B: 'Energy', C: 'Delivery', D: 'Bundled' }[part];
  const [rr, rs] = s.res ?? ['.', '.'];
  const [cr, cs] = s.com ?? ['.', '.'];
  const [ir, is] = s.ind ?? ['.', '.'];
  return {
    data_year: '2018',
    utility_number: utility,
    utility_name: `U${utility}`,
    part,
    service_type: serviceType,
    data_type: 'O',
    state,
    ownership: 'Investor Owned',
    ba_code: ba,
    residential_revenues_thousand_dollars: String(rr),
    residential_sales_mwh: String(rs),
    residential_customers: '1',
    commercial_revenues_thousand_dollars: String(cr),
    commercial_sales_mwh: String(cs),
    commercial_customers: '1',
    industrial_revenues_thousand_dollars: String(ir),
    industrial_sales_mwh: String(is),
    industrial_customers: '1',
    transportation_revenues_thousand_dollars: '.',
    transportation_sales_mwh: '.',
    transportation_customers: '.',
    total_revenues_thousand_dollars: '0',
    total_sales_mwh: '0',
    total_customers: '3',
  };
}
/** One OpenEI ZIP row (rates in $/kWh). */
function zipRow(zip: string, eiaid: string, serviceType: string, res: Cell, comm: Cell, ind: Cell) {
  return {
    zip,
    eiaid,
    utility_name: `U${eiaid}`,
    state: 'AA',
    service_type: serviceType,
    ownership: 'Investor Owned',
    comm_rate: String(comm),
    ind_rate: String(ind),
    res_rate: String(res),
  };
}

describe('averageRate on synthetic rows', () => {
  const salesRows = [
    // utility 1 in AA: two part-A rows (two balancing authorities) are summed
    sales('1', 'AA', 'A', { res: [100, 1000], com: [30, 200], ind: [0, 0] }, 'BA1'),
    sales('1', 'AA', 'A', { res: [50, 500], com: ['.', '.'], ind: [0, 0] }, 'BA2'),
    // its energy-only, delivery-only and part-D rows never enter the rate
    sales('1', 'AA', 'B', { res: [10, 1000], com: [10, 1000], ind: [10, 1000] }),
    sales('1', 'AA', 'C', { res: [20, 1000], com: [20, 1000], ind: [20, 1000] }),
    sales('1', 'AA', 'D', { res: [90, 100], com: [90, 100], ind: [90, 100] }),
    // utility 1 in BB: another state, another price
    sales('1', 'BB', 'A', { res: [1, 3], com: [2, 3], ind: [5, 100] }),
    // utility 2 in AA: commercial revenue withheld ('.') with sales given; revenue without sales
    sales('2', 'AA', 'A', { res: [40, 400], com: ['.', 500], ind: [7, 0] }),
    // utility 3 in AA reports delivery only (like a wires utility in a retail-choice state)
    sales('3', 'AA', 'C', { res: [5, 100], com: [5, 100], ind: [5, 100] }),
    // EIA's state adjustment row: in the state average, never a utility
    sales('99999', 'AA', 'A', { res: [60, 500], com: [10, 100], ind: [0, 0] }),
  ];
  const zip2023 = [
    zipRow('00501', '3', 'Delivery', 0.05, 0.04, 0.03), // a Delivery row is never used...
    zipRow('00501', '3', 'Bundled', 0.1234564, 0.1111116, 0), // ...the Bundled row is (first one wins)
    zipRow('00501', '3', 'Bundled', 0.9, 0.9, 0.9),
    zipRow('00502', '3', 'Delivery', 0.05, 0.04, 0.03), // only a Delivery row for this pair
    zipRow('00501', '1', 'Bundled', 0.2, 0.2, 0.2),
  ];
  const zip2011 = [
    zipRow('00501', '3', 'Bundled', 0.3, 0.3, 0.0876543), // used where 2023 says 0
    zipRow('00502', '3', 'Bundled', 0.07, 0.07, 0.07),
    zipRow('00501', '1', 'Bundled', 0.15, 0.15, 0.15),
  ];
  const table = buildAverageRates(salesRows, zip2023, zip2011);

  it('(1) EIA-861 part A of that utility in that state: summed revenue / summed sales', () => {
    // (100 + 50) thousand $ / (1000 + 500) MWh = 0.1 $/kWh; parts B, C, D (0.01, 0.02, 0.9) ignored
    expect(averageRate(table, { utilityId: '1', state: 'AA', zipCode: '00501', sector: 'residential' })).toEqual(eia(0.1));
    // commercial: the '.' row drops out, 30 / 200 = 0.15
    expect(averageRate(table, { utilityId: '1', state: 'AA', zipCode: '00501', sector: 'commercial' })).toEqual(eia(0.15));
    // the state matters: in BB 1 / 3 = 0.333333 and 2 / 3 = 0.666667 (6 decimals), 5 / 100 = 0.05
    expect(averageRate(table, { utilityId: '1', state: 'BB', sector: 'residential' })).toEqual(eia(0.333333));
    expect(averageRate(table, { utilityId: 1, state: 'bb', sector: 'commercial' })).toEqual(eia(0.666667));
    expect(averageRate(table, { utilityId: '1', state: 'BB', sector: 'industrial' })).toEqual(eia(0.05));
    // utility 2: 40 / 400 = 0.1
    expect(averageRate(table, { utilityId: '2', state: 'AA', sector: 'residential' })).toEqual(eia(0.1));
  });

  it('(2) no part-A sales (zero-sales row, or only a delivery part) -> the ZIP table, 2023 then 2011, Bundled rows only', () => {
    // utility 1 industrial: part A rows are 0 / 0 -> ZIP 2023 Bundled 0.2
    expect(averageRate(table, { utilityId: '1', state: 'AA', zipCode: '00501', sector: 'industrial' })).toEqual(zip23(0.2));
    // utility 3 reports part C only -> ZIP 2023 Bundled row (first of two), rounded: 0.1234564 -> 0.123456
    expect(averageRate(table, { utilityId: '3', state: 'AA', zipCode: '00501', sector: 'residential' })).toEqual(zip23(0.123456));
    expect(averageRate(table, { utilityId: '3', state: 'AA', zipCode: '00501-1234', sector: 'commercial' })).toEqual(zip23(0.111112));
    // 2023 industrial is 0 (no sales in that class) -> 2011: 0.0876543 -> 0.087654
    expect(averageRate(table, { utilityId: '3', state: 'AA', zipCode: '00501', sector: 'industrial' })).toEqual(zip11(0.087654));
    // 2023 has only a Delivery row for 00502 (0.05, not a full-service price) -> 2011 Bundled 0.07
    expect(averageRate(table, { utilityId: '3', state: 'AA', zipCode: '00502', sector: 'residential' })).toEqual(zip11(0.07));
    // the state counts for rule 1 only: utility 1 has no part A in CC -> its ZIP rate
    expect(averageRate(table, { utilityId: '1', state: 'CC', zipCode: '00501', sector: 'residential' })).toEqual(zip23(0.2));
  });

  it("'.' values: a withheld revenue with sales, or a revenue without sales, is not a price", () => {
    // utility 2 commercial: revenue '.' with 500 MWh -> no EIA rate, no ZIP row -> null
    expect(averageRate(table, { utilityId: '2', state: 'AA', zipCode: '00501', sector: 'commercial' })).toBeNull();
    // utility 2 industrial: 7 thousand $ on 0 MWh -> null
    expect(averageRate(table, { utilityId: '2', state: 'AA', sector: 'industrial' })).toBeNull();
  });

  it('(3) null: missing utility, no ZIP, ZIP without the utility, adjustment rows', () => {
    expect(averageRate(table, { utilityId: '404', state: 'AA', zipCode: '00501', sector: 'residential' })).toBeNull();
    expect(averageRate(table, { utilityId: '3', state: 'AA', sector: 'residential' })).toBeNull();
    expect(averageRate(table, { utilityId: '3', state: 'AA', zipCode: null, sector: 'residential' })).toBeNull();
    expect(averageRate(table, { utilityId: '3', state: 'AA', zipCode: '99999', sector: 'residential' })).toBeNull();
    expect(averageRate(table, { utilityId: '3', state: 'AA', zipCode: 'abc', sector: 'residential' })).toBeNull();
    expect(averageRate(table, { utilityId: '', state: 'AA', zipCode: '00501', sector: 'residential' })).toBeNull();
    expect(averageRate(table, { utilityId: '99999', state: 'AA', sector: 'residential' })).toBeNull();
  });

  it('stateAverageRate: every part-A row of the state, with the adjustment rows', () => {
    // AA residential: (100 + 50 + 40 + 60) / (1000 + 500 + 400 + 500) = 250 / 2400 = 0.104167 (0.1041666...)
    expect(stateAverageRate(table, 'AA', 'residential')).toEqual(eia(0.104167));
    // AA commercial: (30 + 10) / (200 + 100) = 0.133333; the '.' rows and utility 2's '.' / 500 drop out
    expect(stateAverageRate(table, 'aa', 'commercial')).toEqual(eia(0.133333));
    // AA industrial: only 0 / 0 rows and 7 / 0 -> null
    expect(stateAverageRate(table, 'AA', 'industrial')).toBeNull();
    expect(stateAverageRate(table, 'ZZ', 'residential')).toBeNull();
  });

  it("retail market prices: part B (energy only, a supplier's supply price) and part D (retail providers' full service), by state", () => {
    // AA part B: utility 1's row only, 10 / 1000 = 0.01 in every sector
    expect(retailSupplyRate(table, 'AA', 'residential')).toEqual(partB(0.01));
    expect(retailSupplyRate(table, 'aa', 'industrial')).toEqual(partB(0.01));
    // AA part D: 90 / 100 = 0.9
    expect(retailFullServiceRate(table, 'AA', 'commercial')).toEqual(partD(0.9));
    // BB has neither
    expect(retailSupplyRate(table, 'BB', 'residential')).toBeNull();
    expect(retailFullServiceRate(table, 'BB', 'residential')).toBeNull();
  });

  it('customers in the state (every part and row), and whether the ZIP tables list a pair with a Bundled row', () => {
    // utility 1 in AA: five rows (two part A, B, C, D) of 3 customers each
    expect(utilityCustomersInState(table, '1', 'AA')).toBe(15);
    expect(utilityCustomersInState(table, 1, 'bb')).toBe(3);
    expect(utilityCustomersInState(table, '3', 'AA')).toBe(3);
    expect(utilityCustomersInState(table, '3', 'BB')).toBeNull();
    expect(utilityCustomersInState(table, '99999', 'AA')).toBeNull(); // EIA's adjustment rows are not a utility
    expect(listedWithRateForZip(table, '00501', '3')).toBe(true);
    expect(listedWithRateForZip(table, '00502', '3')).toBe(true); // 2011 Bundled row
    expect(listedWithRateForZip(table, '00502', '1')).toBe(false);
    expect(listedWithRateForZip(table, 'abc', '1')).toBe(false);
  });

  it('national average: every part-A row of every state', () => {
    // residential: (100 + 50 + 40 + 60 + 1) / (1000 + 500 + 400 + 500 + 3) = 251 / 2403 = 0.104453
    expect(nationalAverageRate(table, 'residential')).toEqual(eia(0.104453));
  });
});

describe('servingUtilityRate: the ERCOT wires utilities take the Texas part-D price', () => {
  const table = buildAverageRates(
    [
      sales('8901', 'TX', 'A', { res: [999, 1000] }), // never a wires utility's own row in the real file; ignored if it were
      sales('15847', 'TX', 'D', { res: [115, 1000], com: [77, 1000] }),
      sales('7', 'TX', 'A', { res: [100, 1000] }),
      sales('8901', 'OK', 'A', { res: [50, 1000] }),
    ],
    [],
    [],
  );

  it('8901 in Texas: part D; elsewhere, or another utility: averageRate', () => {
    expect(isTexasWiresUtility('8901', 'TX')).toBe(true);
    expect(isTexasWiresUtility(44372, 'tx')).toBe(true);
    expect(isTexasWiresUtility('8901', 'OK')).toBe(false);
    expect(isTexasWiresUtility('7', 'TX')).toBe(false);
    expect(servingUtilityRate(table, { utilityId: '8901', state: 'TX', sector: 'residential' })).toEqual(partD(0.115));
    expect(servingUtilityRate(table, { utilityId: '44372', state: 'TX', sector: 'commercial' })).toEqual(partD(0.077));
    expect(servingUtilityRate(table, { utilityId: '44372', state: 'TX', sector: 'industrial' })).toBeNull();
    expect(servingUtilityRate(table, { utilityId: '8901', state: 'OK', sector: 'residential' })).toEqual(eia(0.05));
    expect(servingUtilityRate(table, { utilityId: '7', state: 'TX', sector: 'residential' })).toEqual(eia(0.1));
  });
});

describe('averageRate on the bundled files', () => {
  const table = bundledAverageRates();

  it('Pacific Gas & Electric (14328), commercial, CA: EIA-861 part A', () => {
    // 3,398,703 thousand $ / 16,041,886 MWh (one part-A row; part C, 1,721,696 / 14,814,946, left out)
    // python3 -c "import csv,gzip;r=[x for x in csv.DictReader(gzip.open('data/reference/eia861_2018_sales_ult_cust.csv.gz','rt')) if x['utility_number']=='14328' and x['state']=='CA' and x['part']=='A'];print(len(r),round(sum(float(x['commercial_revenues_thousand_dollars']) for x in r)/sum(float(x['commercial_sales_mwh']) for x in r),6))"
    // -> 1 0.211864
    expect(averageRate(table, { utilityId: '14328', state: 'CA', zipCode: '94103', sector: 'commercial' })).toEqual(eia(0.211864));
  });

  it('Commonwealth Edison (4110), residential, IL: EIA-861 part A', () => {
    // 2,363,667.6 / 18,130,982 (part C: 577,535.1 / 10,060,355 = 0.0574, left out)
    // python3 -c "import csv,gzip;r=[x for x in csv.DictReader(gzip.open('data/reference/eia861_2018_sales_ult_cust.csv.gz','rt')) if x['utility_number']=='4110' and x['state']=='IL' and x['part']=='A'];print(len(r),round(sum(float(x['residential_revenues_thousand_dollars']) for x in r)/sum(float(x['residential_sales_mwh']) for x in r),6))"
    // -> 1 0.130366
    expect(averageRate(table, { utilityId: '4110', state: 'IL', zipCode: '60601', sector: 'residential' })).toEqual(eia(0.130366));
  });

  it('Consolidated Edison (4226), commercial, NY: EIA-861 part A', () => {
    // 1,852,024 / 9,597,866 (part C, delivery-only, is 3 times the kWh: 29,808,103 MWh)
    // python3 -c "import csv,gzip;r=[x for x in csv.DictReader(gzip.open('data/reference/eia861_2018_sales_ult_cust.csv.gz','rt')) if x['utility_number']=='4226' and x['state']=='NY' and x['part']=='A'];print(len(r),round(sum(float(x['commercial_revenues_thousand_dollars']) for x in r)/sum(float(x['commercial_sales_mwh']) for x in r),6))"
    // -> 1 0.192962
    expect(averageRate(table, { utilityId: '4226', state: 'NY', zipCode: '10001', sector: 'commercial' })).toEqual(eia(0.192962));
  });

  it('CenterPoint Energy Houston Electric (8901), TX: no EIA-861 row, no ZIP row -> null; the Texas part-A average instead', () => {
    // EIA-861 2018 sales has no row for 8901 (any part), and neither ZIP table lists 8901 or ZIP 77002:
    // python3 -c "import csv,gzip;print(sum(1 for x in csv.DictReader(gzip.open('data/reference/eia861_2018_sales_ult_cust.csv.gz','rt')) if x['utility_number']=='8901'))"
    // -> 0
    // python3 -c "import csv,gzip;print(sum(1 for f in ['non_iou_zipcodes_2023','iouzipcodes2011'] for x in csv.DictReader(gzip.open('data/reference/'+f+'.csv.gz','rt')) if x['eiaid']=='8901' or x['zip']=='77002'))"
    // -> 0
    expect(averageRate(table, { utilityId: '8901', state: 'TX', zipCode: '77002', sector: 'commercial' })).toBeNull();
    // Texas commercial, every part-A row with numbers and sales > 0 (99 rows, with EIA's adjustment rows):
    // python3 -c "import csv,gzip;r=[x for x in csv.DictReader(gzip.open('data/reference/eia861_2018_sales_ult_cust.csv.gz','rt')) if x['state']=='TX' and x['part']=='A' and '.' not in (x['commercial_revenues_thousand_dollars'],x['commercial_sales_mwh']) and float(x['commercial_sales_mwh'])>0];print(len(r),round(sum(float(x['commercial_revenues_thousand_dollars']) for x in r)/sum(float(x['commercial_sales_mwh']) for x in r),6))"
    // -> 99 0.090078
    expect(stateAverageRate(table, 'TX', 'commercial')).toEqual(eia(0.090078));
  });

  it('the ZIP fallback on real rows: Reliant (15847, part D only in TX) and Western Massachusetts Electric (20455, not in EIA-861 2018)', () => {
    // python3 -c "import csv,gzip;print([x['comm_rate'] for x in csv.DictReader(gzip.open('data/reference/non_iou_zipcodes_2023.csv.gz','rt')) if x['zip']=='77269' and x['eiaid']=='15847'])"
    // -> ['0.1239303699217951']
    expect(averageRate(table, { utilityId: '15847', state: 'TX', zipCode: '77269', sector: 'commercial' })).toEqual(zip23(0.12393));
    // python3 -c "import csv,gzip;print([(x['service_type'],x['res_rate']) for x in csv.DictReader(gzip.open('data/reference/iouzipcodes2011.csv.gz','rt')) if x['zip']=='01151' and x['eiaid']=='20455'])"
    // -> [('Bundled', '0.146917563986'), ('Delivery', '0.0762978484786')]  (the Delivery row is the wires part only, not used)
    expect(averageRate(table, { utilityId: '20455', state: 'MA', zipCode: '01151', sector: 'residential' })).toEqual(zip11(0.146918));
  });

  it('the retail market prices of the bundled file: Pennsylvania part B, Texas part D', () => {
    // python3 -c "import csv,gzip;r=[x for x in csv.DictReader(gzip.open('data/reference/eia861_2018_sales_ult_cust.csv.gz','rt')) if x['part']=='B' and x['state']=='PA' and '.' not in (x['residential_revenues_thousand_dollars'],x['residential_sales_mwh']) and float(x['residential_sales_mwh'])>0];print(len(r),round(sum(float(x['residential_revenues_thousand_dollars']) for x in r)/sum(float(x['residential_sales_mwh']) for x in r),6))"
    // -> 86 0.087793 (1,615,731 / 18,403,932); commercial: 87 rows, 3,905,663.1 / 63,881,482 = 0.061139
    expect(retailSupplyRate(table, 'PA', 'residential')).toEqual(partB(0.087793));
    expect(retailSupplyRate(table, 'PA', 'commercial')).toEqual(partB(0.061139));
    // Texas has no part-B rows; part D (same command with part D, TX): residential 67 rows, 10,498,491.6 / 91,132,160 = 0.115201;
    // commercial 77 rows, 7,149,487.6 / 92,844,412 = 0.077005
    expect(retailSupplyRate(table, 'TX', 'residential')).toBeNull();
    expect(retailFullServiceRate(table, 'TX', 'residential')).toEqual(partD(0.115201));
    expect(retailFullServiceRate(table, 'TX', 'commercial')).toEqual(partD(0.077005));
    expect(servingUtilityRate(table, { utilityId: '8901', state: 'TX', zipCode: '77002', sector: 'residential' })).toEqual(partD(0.115201));
    expect(servingUtilityRate(table, { utilityId: '44372', state: 'TX', zipCode: '75201', sector: 'commercial' })).toEqual(partD(0.077005));
    // Seattle City Light (16868): 461,523 customers in WA, listed by the 2023 ZIP table for 98101; Puget Sound Energy (15500) not
    expect(utilityCustomersInState(table, '16868', 'WA')).toBe(461_523);
    expect(utilityCustomersInState(table, '15500', 'WA')).toBe(1_149_781);
    expect(listedWithRateForZip(table, '98101', '16868')).toBe(true);
    expect(listedWithRateForZip(table, '98101', '15500')).toBe(false);
  });
});
