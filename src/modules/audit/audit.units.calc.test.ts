import { RULES } from './audit.thresholds';
import { nearPowerOfTen } from './audit.units.calc';
import type { AuditBill } from './audit.types';
import { audit, bill, findingsOf, priced, reasons } from './audit.calc.fixtures';

/** The engine's price of a two-part tariff: `usageCents` of usage charges (line `usageName`) and `fixedCents` (line `fixedName`). */
const twoPart = (usageCents: number, fixedCents: number, usageName: string, fixedName: string, tariffName = 'E-1') =>
  priced(usageCents + fixedCents, {
    tariffName,
    expectedLines: [
      { category: 'energy', name: usageName, amount: usageCents / 100 },
      { category: 'fixed', name: fixedName, amount: fixedCents / 100 },
    ],
  });

/** A meter's history: Jan 1-30, Jan 31-Mar 1 and Mar 2-31 2025 (30 days each), each bill with `extra`; ids as given, else the start dates. */
const threeMonths = (extra: Partial<AuditBill>, ids: string[] = []) =>
  [
    ['2025-01-01', '2025-01-30'],
    ['2025-01-31', '2025-03-01'],
    ['2025-03-02', '2025-03-31'],
  ].map(([start, end], i) => bill(start!, end!, { ...(ids[i] === undefined ? {} : { id: ids[i] }), ...extra }));

describe('nearPowerOfTen', () => {
  it('names the power of ten a ratio is within a factor of 2 of, 10 and up', () => {
    expect(RULES.unitErrorNearFactor).toBe(2);
    // 1,000 / 2 = 500 to 1,000 x 2 = 2,000
    expect([500, 1382.35, 2000].map(nearPowerOfTen)).toEqual([1000, 1000, 1000]);
    expect([499, 2001].map(nearPowerOfTen)).toEqual([null, null]);
    // 10: 5 to 20; 100: 50 to 200
    expect([5, 20, 50, 200].map(nearPowerOfTen)).toEqual([10, 10, 100, 100]);
    expect([4.99, 20.1, 49.9, 201].map(nearPowerOfTen)).toEqual([null, null, null, null]);
    // Near 1 is no unit error at all.
    expect([1, 1.5, 2.5, 0.5].map(nearPowerOfTen)).toEqual([null, null, null, null]);
  });
});

describe('likely_unit_error', () => {
  // A water meter on W-1: $11.80 a month and $4.18 per kgal; three months of about 1,100 kgal (36.667 kgal a day).
  const water = (id: string, periodStart: string, periodEnd: string, usage: number, amountCents: number) =>
    bill(periodStart, periodEnd, { id, usage, unit: 'kgal', amountCents });
  const onW1 = (usage: number) => twoPart(Math.round(usage * 418), 1180, 'Usage', 'Service', 'W-1');
  const history = threeMonths({ usage: 1100, unit: 'kgal', amountCents: 460_980 }, ['h1', 'h2', 'h3']);
  const pricingOf = (bills: ReturnType<typeof water>[]) => Object.fromEntries(bills.map((b) => [b.id, onW1(b.usage!)]));

  it('gallons typed as kgal: one finding naming the factor, in place of the price findings; no dollars at issue', () => {
    // Typed 1,100,000 kgal (1,100,000 gallons), billed $3,337.99. W-1 expects 1,100,000 x 4.18 = $4,598,000.00 + $11.80.
    // Usage charges: billed 3,337.99 - 11.80 = $3,326.19 against $4,598,000.00: 1/1,382.35, near 1/1,000.
    // History: 1,100,000 / 30 = 36,666.667 kgal a day against a median of 36.667: 1,000 times.
    const typo = water('typo', '2025-04-01', '2025-04-30', 1_100_000, 333_799);
    const bills = [...history, typo];
    const a = audit(bills, { ...pricingOf(bills), typo: onW1(1_100_000) })[3]!;
    expect(a).toMatchObject({
      status: 'unpriceable',
      reason: 'the usage looks 1000 times too large (likely_unit_error)',
      expectedCents: null,
      varianceCents: null,
    });
    expect(a.findings).toEqual([
      {
        billId: 'typo',
        reason: 'likely_unit_error',
        severity: 'medium',
        amountCents: null,
        message:
          '1,100,000 kgal looks 1,000 times too large (a unit error?): its usage charges ($3326.19) are 1/1,382 of what W-1 charges ' +
          'for 1,100,000 kgal ($4598000.00); as 1,100 kgal the bill can be audited, and until then its price is not',
        details: {
          factor: 1000,
          direction: 'too_large',
          basis: 'unit_price',
          usage: 1_100_000,
          unit: 'kgal',
          corrected_usage: 1100,
          usage_charge_ratio: 0.000723,
          history_ratio: 1000,
        },
      },
    ]);
    // Before: a price_variance of 3,337.99 - 4,598,011.80 = -$4,594,673.81 and a unit price out of range.
    expect(reasons(audit([typo], { typo: onW1(1_100_000) })[0]!)).toEqual(['likely_unit_error']);
  });

  it('a usage 100 times too small, by unit price: billed $110.00 for 10 kWh that E-1 charges $1.00 (usage charges 100 times)', () => {
    const b = bill('2025-01-01', '2025-01-31', { id: 'b', usage: 10, amountCents: 11000 });
    // E-1 for 10 kWh: $1.00 of energy and the $10.00 customer charge
    const p = twoPart(100, 1000, 'Energy', 'Customer');
    expect(findingsOf(audit([b], { b: p })[0]!, 'likely_unit_error')).toEqual([
      expect.objectContaining({
        message:
          '10 kWh looks 100 times too small (a unit error?): its usage charges ($100.00) are 100 times what E-1 charges for 10 kWh ($1.00); ' +
          'as 1,000 kWh the bill can be audited, and until then its price is not',
        details: expect.objectContaining({ factor: 100, direction: 'too_small', corrected_usage: 1000 }),
      }),
    ]);
  });

  it('MWh typed as kWh on a demand tariff: the demand charges are no usage charges (they bill the kW, whatever the kWh)', () => {
    // ML&P's large general service: $0.0268176 a kWh, $44.53 a kW, $92.61 a month. 40,100 kWh on 104 kW bill 1,075.39 + 4,631.12
    // + 92.61 = $5,799.12; typed as 40.1 kWh the tariff charges 1.08 + 4,631.12 + 92.61 = $4,724.81. Usage charges: billed
    // 5,799.12 - 92.61 - 4,631.12 = $1,075.39 against $1.08: 995.7 times, near 1,000. With the demand charges counted as usage
    // charges it was 5,706.51 / 4,632.20 = 1.23 times, a price fitting the usage, and a +$1,074.31 price variance.
    const typo = bill('2025-03-05', '2025-04-03', { id: 'typo', usage: 40.1, demandKw: 104, amountCents: 579_912 });
    const p = priced(472_481, {
      expectedLines: [
        { category: 'energy', name: 'Energy', amount: 1.08 },
        { category: 'demand', name: 'Facility demand', amount: 4631.12 },
        { category: 'fixed', name: 'Customer', amount: 92.61 },
      ],
    });
    const a = audit([typo], { typo: p })[0]!;
    expect(reasons(a)).toEqual(['likely_unit_error']);
    expect(a.findings[0]!).toMatchObject({
      message:
        '40.1 kWh looks 1,000 times too small (a unit error?): its usage charges ($1075.39) are 996 times what E-1 charges for 40.1 kWh ($1.08); ' +
        'as 40,100 kWh the bill can be audited, and until then its price is not',
      details: { factor: 1000, direction: 'too_small', basis: 'unit_price', corrected_usage: 40_100 },
    });
  });

  it("near 10 by unit price only when the meter's history agrees (a minimum bill is 10 times a small usage's charges) or there is none", () => {
    // E-1: $10.00 a month + $0.01 a kWh. History: 300 kWh in 30 days, three times (10 kWh a day).
    const month = (id: string, start: string, end: string, usage: number, amountCents: number) =>
      bill(start, end, { id, usage, amountCents });
    const e1 = (usage: number) => twoPart(usage, 1000, 'Energy', 'Customer');
    const before = threeMonths({ usage: 300, amountCents: 1300 }, ['a', 'b', 'c']);
    const run = (last: ReturnType<typeof month>, withHistory: boolean) => {
      const bills = withHistory ? [...before, last] : [last];
      return audit(bills, Object.fromEntries(bills.map((x) => [x.id, e1(x.usage!)]))).at(-1)!;
    };
    // 300 kWh billed $40.00: usage charges $30.00 against $3.00, 10 times; but 10 kWh a day is the meter's usual: a price variance.
    const minimum = month('d', '2025-04-01', '2025-04-30', 300, 4000);
    expect(reasons(run(minimum, true))).toEqual(['price_variance']);
    // Without history the unit price decides: 10 times too small.
    expect(findingsOf(run(minimum, false), 'likely_unit_error')).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ factor: 10, direction: 'too_small' }) }),
    ]);
    // 30 kWh (1 a day, a tenth of the usual) billed $13.00: usage charges $3.00 against $0.30, 10 times, and the history agrees.
    expect(findingsOf(run(month('d', '2025-04-01', '2025-04-30', 30, 1300), true), 'likely_unit_error')).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({
          factor: 10,
          direction: 'too_small',
          basis: 'unit_price',
          corrected_usage: 300,
          history_ratio: 0.1,
        }),
      }),
    ]);
  });

  it("by history, on a meter without a tariff: from 10^1.5 (31.6) times the median of the meter's other bills", () => {
    // Three bills of 3,000 kWh in 30 days (100 a day); the fourth, 30 days too.
    const meter = (usage: number) => audit([...threeMonths({ usage: 3000 }), bill('2025-04-01', '2025-04-30', { id: 'x', usage })])[3]!;
    // 94,800 / 30 = 3,160 a day: 31.6 times, under 31.623; 94,900: 31.633 times, a unit error of 10^round(1.50) = 100.
    expect(findingsOf(meter(94_800), 'likely_unit_error')).toEqual([]);
    expect(findingsOf(meter(94_900), 'likely_unit_error')).toEqual([
      {
        billId: 'x',
        reason: 'likely_unit_error',
        severity: 'medium',
        amountCents: null,
        message:
          "94,900 kWh looks 100 times too large (a unit error?): 3,163.333 kWh a day against a median of 100 on the meter's 3 other bills; " +
          'as 949 kWh the bill can be audited, and until then its price is not',
        details: {
          factor: 100,
          direction: 'too_large',
          basis: 'history',
          usage: 94_900,
          unit: 'kWh',
          corrected_usage: 949,
          usage_charge_ratio: null,
          history_ratio: 31.633,
        },
      },
    ]);
    // 3,000,000 kWh: 1,000 times; 3 kWh: 1/1,000.
    expect(findingsOf(meter(3_000_000), 'likely_unit_error')[0]!.details).toMatchObject({
      factor: 1000,
      direction: 'too_large',
      corrected_usage: 3000,
    });
    expect(findingsOf(meter(3), 'likely_unit_error')[0]!.details).toMatchObject({
      factor: 1000,
      direction: 'too_small',
      corrected_usage: 3000,
    });
  });

  it('history needs two other bills, and a unit price that is right overrules it (the other bills are the ones typed wrong)', () => {
    expect(
      findingsOf(
        audit([bill('2025-01-01', '2025-01-30', { usage: 3000 }), bill('2025-04-01', '2025-04-30', { id: 'x', usage: 3_000_000 })])[1]!,
        'likely_unit_error',
      ),
    ).toEqual([]);
    // Two bills typed in Wh (3,000,000 for 3,000 kWh) and one right, priced as billed: the right one is 1/1,000 of the median, but its price fits.
    const bills = [
      bill('2025-01-01', '2025-01-30', { usage: 3_000_000 }),
      bill('2025-01-31', '2025-03-01', { usage: 3_000_000 }),
      bill('2025-03-02', '2025-03-31', { id: 'x', usage: 3000 }),
    ];
    const p = priced(10000, { expectedLines: [{ category: 'energy', name: 'Energy', amount: 100 }] });
    expect(findingsOf(audit(bills, { x: p })[2]!, 'likely_unit_error')).toEqual([]);
  });

  it('a usage in doubt is no year-earlier comparison (either side); its cost still is', () => {
    // June 2024: 3,000 kWh for $300.00; June 2025 typed 3,000,000 kWh for $300.00, unpriced: one finding, no usage_change.
    const audits = audit([
      bill('2024-06-01', '2024-06-30', { usage: 3000, amountCents: 30000 }),
      bill('2024-07-01', '2024-07-30', { usage: 3000, amountCents: 30000 }),
      bill('2024-07-31', '2024-08-29', { usage: 3000, amountCents: 30000 }),
      bill('2025-06-01', '2025-06-30', { id: 'x', usage: 3_000_000, amountCents: 30000 }),
      bill('2026-06-01', '2026-06-30', { id: 'y', usage: 3000, amountCents: 30000 }),
    ]);
    expect(reasons(audits[3]!)).toEqual(['likely_unit_error', 'billing_gap']);
    expect(reasons(audits[4]!)).toEqual(['billing_gap']);
  });
});
