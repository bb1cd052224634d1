/**
 * Time-of-use on real bundled tariffs: weekday/weekend schedules, usage
 * profiles mapped onto on/mid/off-peak periods, the month's tiers shared by the periods, the
 * 422 cases of a profile, and the split of usage_kwh by the sector's load shape
 * (or a uniform one for agriculture) when there is no profile.
 */
import { BUNDLED, engineTariffs, bill, shapes } from './engine.fixtures';

const t = engineTariffs();

const thrown = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as { code: string; message: string; field: string };
  }
  throw new Error('expected an error');
};

/** Cents of (Wh x price) rounded half away from zero, for the load-shape cases (integers only). */
function cents(wh: number, price: string): number {
  const [whole, frac = ''] = price.split('.');
  const micro = BigInt(whole + frac.padEnd(6, '0'));
  const n = BigInt(wh) * micro; // in 1e-9 dollars
  return Number((n + 5_000_000n) / 10_000_000n);
}

describe('usage profile on a TOU tariff', () => {
  it('on-peak and off-peak kWh map to the priced periods of the month', () => {
    const b = bill(t.gsTod, { usageKwh: 1000, month: 7, demandKw: 10, usageProfile: { onPeakKwh: 300, offPeakKwh: 700 } });
    // July weekdays 13:00-21:00 are period 3 (0.04712 + 0.01485 = 0.06197): on-peak; the rest period 1 (0.018933): off-peak
    // off 700 x 0.018933 = 13.2531 -> 13.25; on 300 x 0.06197 = 18.591 -> 18.59
    // demand 10 x 5.13 = 51.30; fixed 36.66; fuel July 1000 x 0.0201 = 20.10; total 139.90
    expect(b.lineItems.map((i) => [i.category, i.name, i.amount])).toEqual([
      ['energy', 'Energy off_peak: 700 kWh x $0.018933/kWh', 13.25],
      ['energy', 'Energy summer_on_peak: 300 kWh x $0.06197/kWh', 18.59],
      ['demand', 'Facility demand: 10 kW x $5.13/kW', 51.3],
      ['fixed', 'Fixed customer charge: $36.66/month', 36.66],
      ['rider', 'Fuel adjustment (July): 1000 kWh x $0.0201/kWh', 20.1],
    ]);
    expect(b.totalCost).toBe(139.9);
    expect(b.season).toBe('summer');
    expect(b.assumptions).toEqual([]);
  });

  it("three price levels: on, mid and off-peak, sharing the month's tiers", () => {
    const b = bill(t.lgsTou, {
      usageKwh: 38_000,
      month: 7,
      demandKw: 100,
      usageProfile: { onPeakKwh: 13_000, midPeakKwh: 5000, offPeakKwh: 20_000 },
    });
    // The 12,500 kWh tier is the month's first 12,500 kWh (all periods publish it), shared in proportion to each
    // period's kWh (13,000 : 5,000 : 20,000 of 38,000). In Wh: 12,500,000 x 13/38 = 4,276,315.79 -> 4,276,316;
    // x 5/38 = 1,644,736.84 -> 1,644,737; x 20/38 = 6,578,947.37 -> 6,578,947 (sum 12,500,000 exactly).
    // on (0.130971 - 0.004851 = 0.12612): 4,276.316 x 0.12612 = 539.32897 -> 539.33;
    //    rest 13,000 - 4,276.316 = 8,723.684 x (0.118971 - 0.004851 = 0.11412) = 995.54682 -> 995.55
    // mid (0.074076 - 0.004851 = 0.069225): 1,644.737 x 0.069225 = 113.85692 -> 113.86;
    //    rest 3,355.263 x (0.062076 - 0.004851 = 0.057225) = 192.00493 -> 192.00
    // off (0.055971 - 0.004851 = 0.05112): 6,578.947 x 0.05112 = 336.31577 -> 336.32;
    //    rest 13,421.053 x (0.043971 - 0.004851 = 0.03912) = 525.03159 -> 525.03
    // demand 100 x 14.12 = 1,412.00; fixed 20.90; total 2,702.09 + 1,412 + 20.90 = 4,134.99
    // (each period through its own 12,500 kWh tier, the old rule, gave 4,344.99)
    expect(b.lineItems.map((i) => i.amount)).toEqual([539.33, 995.55, 113.86, 192, 336.32, 525.03, 1412, 20.9]);
    expect(b.lineItems[0].name).toBe("Energy summer_on_peak tier 1 (share of the month's first 12500 kWh): 4276.316 kWh x $0.12612/kWh");
    expect(b.lineItems[1].name).toBe("Energy summer_on_peak tier 2 (share of the month's kWh above 12500): 8723.684 kWh x $0.11412/kWh");
    expect(b.lineItems[2].name).toBe("Energy summer_mid_peak tier 1 (share of the month's first 12500 kWh): 1644.737 kWh x $0.069225/kWh");
    expect(b.totalCost).toBe(4134.99);
  });

  it('a profile must add up to usage_kwh within 0.01 kWh', () => {
    const e = thrown(() => bill(t.gsTod, { usageKwh: 1000, month: 7, demandKw: 1, usageProfile: { onPeakKwh: 300, offPeakKwh: 600 } }));
    expect(e).toMatchObject({ code: 'profile_total', field: 'usage_profile' });
    expect(e.message).toBe('usage_profile adds up to 900 kWh but usage_kwh is 1000 (they must agree within 0.01 kWh)');
    // 300.005 + 699.996 = 1000.001: within the tolerance
    expect(
      bill(t.gsTod, { usageKwh: 1000, month: 7, demandKw: 1, usageProfile: { onPeakKwh: 300.005, offPeakKwh: 699.996 } }).lineItems[0].name,
    ).toBe('Energy off_peak: 699.996 kWh x $0.018933/kWh');
  });

  it('kWh in a period the tariff lacks that month is rejected, naming it', () => {
    const mid = thrown(() =>
      bill(t.gsTod, { usageKwh: 1000, month: 7, demandKw: 1, usageProfile: { onPeakKwh: 300, midPeakKwh: 100, offPeakKwh: 600 } }),
    );
    expect(mid).toMatchObject({ code: 'profile_period', field: 'usage_profile.mid_peak_kwh' });
    expect(mid.message).toBe(`usage_profile.mid_peak_kwh is 100 kWh but tariff ${BUNDLED.gsTod} has no mid-peak period in July`);
    // LGS-TOU in January has two price levels only
    const jan = thrown(() =>
      bill(t.lgsTou, { usageKwh: 30, month: 1, demandKw: 1, usageProfile: { onPeakKwh: 10, midPeakKwh: 10, offPeakKwh: 10 } }),
    );
    expect(jan.message).toBe(`usage_profile.mid_peak_kwh is 10 kWh but tariff ${BUNDLED.lgsTou} has no mid-peak period in January`);
  });

  it('a tariff priced alike in every hour accepts any profile and bills usage_kwh', () => {
    const b = bill(t.retailTransmission, {
      usageKwh: 100_000,
      month: 1,
      demandKw: 0,
      usageProfile: { onPeakKwh: 30_000, offPeakKwh: 70_000 },
    });
    // 100,000 x (0.01525 + 0.03052 = 0.04577) = 4,577.00
    expect(b.lineItems[0]).toEqual({ category: 'energy', name: 'Energy all_year: 100000 kWh x $0.04577/kWh', amount: 4577 });
  });
});

describe('usage split by a typical load shape', () => {
  it('lays the sector shape over the tariff schedule and reports the shares', () => {
    const b = bill(t.gsTod, { usageKwh: 1000, month: 7, demandKw: 0 });
    // LOAD-SHAPES.md: kWh in weekday hour h = E x weekday_days x weekday[m][h] / D, with the 2017 counts (July: 20 and 11)
    const shape = shapes.shapes[shapes.defaults.commercial as string];
    const wd = shape.weekday[6];
    const we = shape.weekend[6];
    const onPeak = 20 * (wd[13] + wd[14] + wd[15] + wd[16] + wd[17] + wd[18] + wd[19] + wd[20]);
    const all = 20 * wd.reduce((a, v) => a + v, 0) + 11 * we.reduce((a, v) => a + v, 0);
    const onWh = Math.round((1_000_000 * onPeak) / all);
    const offWh = 1_000_000 - onWh;
    expect(b.lineItems[0].name).toBe(`Energy off_peak: ${offWh / 1000} kWh x $0.018933/kWh`);
    expect(b.lineItems[1].name).toBe(`Energy summer_on_peak: ${onWh / 1000} kWh x $0.06197/kWh`);
    expect(b.lineItems[0].amount).toBe(cents(offWh, '0.018933') / 100);
    expect(b.lineItems[1].amount).toBe(cents(onWh, '0.06197') / 100);
    const pct = (x: number) => ((x / all) * 100).toFixed(1);
    expect(b.assumptions).toEqual([
      'usage_kwh split over the tariff\'s July periods with the typical commercial load shape ("commercial" in data/reference/load-shapes.json), ' +
        `on the 2017 calendar (20 weekdays, 11 weekend days and holidays): off_peak ${pct(all - onPeak)}%, summer_on_peak ${pct(onPeak)}%`,
      // GS-TOD-G publishes peakkwcapacitymin 5: demand_kw 0 is outside it, priced anyway and said
      "demand 0 kW is below this tariff's applicability minimum of 5 kW: the utility may not offer it to this customer",
    ]);
  });

  /** GS-TOD-G as an agricultural tariff (a uniform load shape), priced for 744 kWh, one an hour of a 31-day month. */
  const agricultural = (month: number) => bill({ ...t.gsTod, sector: 'agricultural' }, { usageKwh: 744, month, demandKw: 0 });

  it('agricultural tariffs use a uniform shape, and say so', () => {
    const b = agricultural(7);
    // July has 31 x 24 = 744 hours; on-peak = 8 weekday hours x 20 weekdays = 160 hours -> 160 kWh, off-peak 584 kWh
    // 584 x 0.018933 = 11.056872 -> 11.06; 160 x 0.06197 = 9.9152 -> 9.92
    expect(b.lineItems.slice(0, 2).map((i) => [i.name, i.amount])).toEqual([
      ['Energy off_peak: 584 kWh x $0.018933/kWh', 11.06],
      ['Energy summer_on_peak: 160 kWh x $0.06197/kWh', 9.92],
    ]);
    expect(b.assumptions[0]).toContain(
      'a uniform load shape (every hour of the month alike), because the bundled data has no typical agricultural load shape',
    );
    // 160 / 744 = 21.5%, 584 / 744 = 78.5%
    expect(b.assumptions[0]).toContain('off_peak 78.5%, summer_on_peak 21.5%');
  });

  it('weekends follow the weekend schedule: January peaks are weekday mornings and evenings only', () => {
    // January weekdays: 06:00-10:00 and 18:00-22:00 in period 2 (0.01917 + 0.0015 = 0.02067); weekends all period 1
    // peak hours: 8 x 21 weekdays = 168 of 744; usage 744 kWh -> 168 kWh on-peak, 576 kWh off-peak
    // 576 x 0.018933 = 10.905408 -> 10.91; 168 x 0.02067 = 3.47256 -> 3.47
    const b = agricultural(1);
    expect(b.lineItems.slice(0, 2).map((i) => [i.name, i.amount])).toEqual([
      ['Energy off_peak: 576 kWh x $0.018933/kWh', 10.91],
      ['Energy winter_on_peak: 168 kWh x $0.02067/kWh', 3.47],
    ]);
    expect(b.season).toBe('winter');
  });
});
