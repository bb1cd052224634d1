import { analyzeRates, applicabilityExclusion, classExclusion, recommendationSavingsCents, switchingExclusion } from './rate-analysis.calc';
import { roundDiv } from '../../platform/money';

describe('roundDiv (exact, half away from zero)', () => {
  it.each([
    [7, 2, 4],
    [5, 2, 3],
    [-5, 2, -3],
    [5, -2, -3],
    [4, 3, 1],
    [1, 3, 0],
    [2, 3, 1],
    [-1, 3, 0],
    [0, 5, 0],
  ])('%i / %i = %i', (n, d, q) => {
    expect(roundDiv(n, d)).toBe(q);
  });
  it('works beyond 2^53 with BigInt input', () => {
    expect(roundDiv(10n ** 20n + 5n, 10n)).toBe(1e19 + 1);
  });
  it('rejects division by zero', () => {
    expect(() => roundDiv(1, 0)).toThrow(RangeError);
  });
});

describe('analyzeRates', () => {
  const at = new Date('2026-05-01T00:00:00Z');
  const current = { id: 'cur', name: 'Current', monthlyCostCents: 123054 };
  type Analysis = Parameters<typeof analyzeRates>[0];
  /** The analysis of property p, on `current` unless `over` says otherwise, at `at`, against `candidates`. */
  const analyze = (candidates: Analysis['candidates'], over: Partial<Analysis> = {}) =>
    analyzeRates({ propertyId: 'p', current, analyzedAt: at, candidates, ...over });

  it('computes savings, percent to 1 decimal, sorts cheapest first and recommends a saving alternative', () => {
    const candidates = [
      { id: 'dear', name: 'Dear', monthlyCostCents: 125554 },
      current,
      { id: 'cheap', name: 'Cheap', monthlyCostCents: 101854 },
    ];
    const a = analyze(candidates, {
      excluded: [{ tariff_id: 'big', name: 'Big', reason: "peak demand 40 kW is below the tariff's minimum of 200 kW" }],
    });
    expect(a).toEqual({
      property_id: 'p',
      current_tariff: { id: 'cur', name: 'Current', estimated_monthly_cost: 1230.54 },
      alternatives: [
        // 21200 / 123054 = 17.228 % -> 17.2
        {
          tariff_id: 'cheap',
          name: 'Cheap',
          estimated_monthly_cost: 1018.54,
          monthly_savings: 212,
          annual_savings: 2544,
          savings_percent: 17.2,
        },
        // -2500 / 123054 = -2.0316 % -> -2.0
        {
          tariff_id: 'dear',
          name: 'Dear',
          estimated_monthly_cost: 1255.54,
          monthly_savings: -25,
          annual_savings: -300,
          savings_percent: -2,
        },
      ],
      // Excluded tariffs are reported as given and never priced or recommended.
      excluded: [{ tariff_id: 'big', name: 'Big', reason: "peak demand 40 kW is below the tariff's minimum of 200 kW" }],
      // Issue 45: the answer says what it was priced on and whether the catalog had anything current.
      needs_review: [],
      basis: { kind: 'typed_usage' },
      catalog_current: true,
      latest_tariff_end_date: null,
      recommendation: 'cheap',
      analyzed_at: '2026-05-01T00:00:00.000Z',
    });
    expect(recommendationSavingsCents(a)).toBe(21200);
  });

  it('prices tariffs to review beside the alternatives and never recommends one, however cheap (issue 45)', () => {
    const a = analyze([{ id: 'dear', name: 'Dear', monthlyCostCents: 125554 }], {
      needsReview: [{ id: 'schools', name: 'Schools', monthlyCostCents: 50000, reason: 'limited to a kind of customer (institution)' }],
    });
    expect(a.recommendation).toBe('cur');
    expect(recommendationSavingsCents(a)).toBe(0);
    // 123054 - 50000 = 73054 a month: shown, with its reason, and nowhere else.
    expect(a.needs_review).toEqual([
      {
        tariff_id: 'schools',
        name: 'Schools',
        estimated_monthly_cost: 500,
        monthly_savings: 730.54,
        annual_savings: 8766.48,
        savings_percent: 59.4,
        reason: 'limited to a kind of customer (institution)',
      },
    ]);
  });

  it('rounds the percent half away from zero: 1 / 8 = 12.5 %, 1/16 = 6.25 % -> 6.3', () => {
    const candidates = [
      { id: 'x', name: 'X', monthlyCostCents: 1500 },
      { id: 'y', name: 'Y', monthlyCostCents: 1700 },
    ];
    const a = analyze(candidates, { current: { id: 'c', name: 'C', monthlyCostCents: 1600 } });
    expect(a.alternatives.map((x) => x.savings_percent)).toEqual([6.3, -6.3]);
  });

  it('keeps the current tariff when nothing is cheaper (a tie is no saving)', () => {
    const a = analyze([{ id: 'same', name: 'Same', monthlyCostCents: 123054 }]);
    expect(a.recommendation).toBe('cur');
    expect(a.alternatives[0]!.monthly_savings).toBe(0);
    expect(recommendationSavingsCents(a)).toBe(0);
  });

  it('with no alternatives at all, recommends the current tariff', () => {
    const a = analyze([current]);
    expect(a.alternatives).toEqual([]);
    expect(a.recommendation).toBe('cur');
  });

  it('a zero current cost gives percent 0 rather than dividing by zero', () => {
    const a = analyze([{ id: 'x', name: 'X', monthlyCostCents: 500 }], { current: { id: 'c', name: 'C', monthlyCostCents: 0 } });
    expect(a.alternatives[0]).toMatchObject({ monthly_savings: -5, savings_percent: 0 });
  });

  it('without a current tariff: null savings, the cheapest recommended; nothing to recommend throws', () => {
    const candidates = [
      { id: 'b', name: 'B', monthlyCostCents: 900 },
      { id: 'a', name: 'A', monthlyCostCents: 900 },
    ];
    const a = analyze(candidates, { current: null });
    expect(a.current_tariff).toBeNull();
    expect(a.recommendation).toBe('a'); // tie broken by id
    expect(a.alternatives[0]).toMatchObject({ monthly_savings: null, annual_savings: null, savings_percent: null });
    expect(recommendationSavingsCents(a)).toBeNull();
    expect(() => analyze([], { current: null })).toThrow(RangeError);
  });
});

describe('applicabilityExclusion (who may take a tariff)', () => {
  const limits = (over: Partial<Parameters<typeof applicabilityExclusion>[0] & object>) => ({
    demandKwMin: null,
    demandKwMax: null,
    usageKwhMin: null,
    usageKwhMax: null,
    ...over,
  });

  it.each([
    // [limits, usage kWh, demand kW, reason]
    [limits({}), 1e6, 5000, null],
    [limits({ demandKwMin: 200, demandKwMax: 500 }), 8000, 40, "peak demand 40 kW is below the tariff's minimum of 200 kW"],
    [limits({ demandKwMin: 200, demandKwMax: 500 }), 8000, 200, null],
    [limits({ demandKwMin: 200, demandKwMax: 500 }), 8000, 500, null],
    [limits({ demandKwMin: 200, demandKwMax: 500 }), 8000, 500.5, "peak demand 500.5 kW is above the tariff's maximum of 500 kW"],
    [limits({ usageKwhMax: 150000 }), 150000, 10, null],
    [limits({ usageKwhMax: 150000 }), 150001, 10, "monthly usage 150001 kWh is above the tariff's maximum of 150000 kWh"],
    [limits({ usageKwhMin: 1000 }), 999.5, 10, "monthly usage 999.5 kWh is below the tariff's minimum of 1000 kWh"],
    // Demand unknown: a minimum cannot be shown; a minimum of 0 asks nothing.
    [
      limits({ demandKwMin: 15 }),
      100,
      null,
      'the tariff requires a peak demand of at least 15 kW and the property has no monthly_demand_kw to show it',
    ],
    [limits({ demandKwMin: 0, demandKwMax: 75 }), 100, null, null],
    // Demand unknown: 73,000 kWh / 730 h = 100 kW average, so the peak is at least 100 kW.
    [limits({ demandKwMax: 100 }), 73000, null, null],
    [
      limits({ demandKwMax: 75 }),
      73000,
      null,
      "average demand 100 kW (monthly usage / 730 h; the peak is higher) is above the tariff's maximum of 75 kW",
    ],
  ])('%j at %d kWh, %s kW: %s', (l, usage, demand, reason) => {
    expect(applicabilityExclusion(l, usage, demand)).toBe(reason);
  });

  it('a tariff without published limits fits everyone', () => {
    expect(applicabilityExclusion(null, 1e9, null)).toBeNull();
  });
});

describe('classExclusion: the tariffs a customer may move to (issue 26)', () => {
  const general = { name: 'General Service', state: 'CA', serviceType: 'bundled' as const, voltage: null, purpose: 'general' as const };
  const customer = { current: { ...general, name: 'Current' }, state: 'CA', serviceType: 'bundled' as const };

  it('admits a general rate of the same service type, state and no higher voltage', () => {
    expect(classExclusion(general, customer)).toBeNull();
    expect(classExclusion({ ...general, voltage: 'secondary' }, customer)).toBeNull();
  });

  it.each([
    [{ name: 'General Service (CLOSED)' }, "closed to new customers (the schedule's name says so)"],
    [{ state: 'NV' }, 'a tariff for NV: the property is in CA'],
    [{ serviceType: 'delivery_only' as const }, "service type delivery_only: the property's service is bundled"],
    [{ purpose: 'standby' as const }, 'a special-purpose tariff (standby), not a general rate the property could take'],
    [
      { voltage: 'primary' as const },
      'service at primary voltage: the property takes service at secondary (assumed: the current tariff does not say)',
    ],
  ])('leaves out %j: %s', (change, reason) => {
    expect(classExclusion({ ...general, ...change }, customer)).toBe(reason);
  });

  it('a customer on a special purpose or at a higher voltage may move within it', () => {
    const onStandby = { ...customer, current: { ...general, name: 'Standby', purpose: 'standby' as const, voltage: 'primary' as const } };
    expect(classExclusion({ ...general, purpose: 'standby', voltage: 'primary' }, onStandby)).toBeNull();
    expect(classExclusion({ ...general, purpose: 'lighting' }, onStandby)).toMatch(/^a special-purpose tariff \(lighting\)/);
  });

  it('without a current tariff: the ZIP state and the service type compared decide', () => {
    const none = { current: null, state: 'TX', serviceType: 'delivery_only' as const };
    expect(classExclusion({ ...general, state: 'TX', serviceType: 'delivery_only' }, none)).toBeNull();
    expect(classExclusion({ ...general, state: 'TX' }, none)).toBe("service type bundled: the property's service is delivery_only");
  });
});

describe('switchingExclusion: published limits, else the ones the name states (issue 26)', () => {
  const none = { demandKwMin: null, demandKwMax: null, usageKwhMin: null, usageKwhMax: null };

  it('a 110 kW site is not offered "Less Than 10KW - No Demand Meter"', () => {
    expect(
      switchingExclusion({ name: 'Small Non-Residential LSP POLR(Less Than 10KW-No Demand Meter)', applicability: none }, 40_000, 110),
    ).toBe("peak demand 110 kW is above the tariff's maximum of 10 kW (the limit its name states)");
    expect(
      switchingExclusion({ name: 'Small Non-Residential LSP POLR(Less Than 10KW-No Demand Meter)', applicability: none }, 2_000, 8),
    ).toBeNull();
  });

  it('published demand limits win over the name; usage limits still apply', () => {
    expect(
      switchingExclusion({ name: 'General Service (over 500 kW)', applicability: { ...none, demandKwMax: 200 } }, 10_000, 40),
    ).toBeNull();
    expect(switchingExclusion({ name: 'General Service (over 500 kW)', applicability: { ...none, usageKwhMax: 5_000 } }, 10_000, 40)).toBe(
      "peak demand 40 kW is below the tariff's minimum of 500 kW (the limit its name states)",
    );
    expect(switchingExclusion({ name: 'General Service', applicability: { ...none, usageKwhMax: 5_000 } }, 10_000, 40)).toBe(
      "monthly usage 10000 kWh is above the tariff's maximum of 5000 kWh",
    );
  });
});
