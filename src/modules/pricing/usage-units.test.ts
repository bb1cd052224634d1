import { convertUsage } from './usage-units';

describe('convertUsage (pricing README "Units")', () => {
  it('converts water volumes by the US gallon: 12 ccf = 12 x 748.05195 gallons = 8.977 kgal', () => {
    expect(convertUsage('water', 12, 'ccf', 'kgal', null)).toEqual({
      ok: true,
      quantity: 8.977,
      note: 'usage 12 ccf converted to 8.977 kgal (1 ccf = 0.748052 kgal), to 0.001 kgal',
    });
    expect(convertUsage('sewer', 9500, 'gallons', 'kgal', null)).toMatchObject({ ok: true, quantity: 9.5 });
  });

  it('leaves usage in the tariff unit alone', () => {
    expect(convertUsage('gas', 120, 'therms', 'therms', null)).toEqual({ ok: true, quantity: 120, note: null });
  });

  it('converts gas volume to volume and heat to heat without a heat content', () => {
    expect(convertUsage('gas', 2.5, 'mcf', 'ccf', null)).toMatchObject({ ok: true, quantity: 25 });
    expect(convertUsage('gas', 1.2, 'MMBtu', 'therms', null)).toMatchObject({ ok: true, quantity: 12 });
  });

  it('converts gas volume to heat only with the stated heat content: 100 ccf at 1.037 therms/ccf = 103.7 therms', () => {
    expect(convertUsage('gas', 100, 'ccf', 'therms', 1.037)).toMatchObject({ ok: true, quantity: 103.7 });
    expect(convertUsage('gas', 103.7, 'therms', 'ccf', 1.037)).toMatchObject({ ok: true, quantity: 100 });
    expect(convertUsage('gas', 100, 'ccf', 'therms', null)).toEqual({
      ok: false,
      field: 'heat_content',
      message: 'heat_content (therms per ccf, as the gas bill states it) is required to convert ccf to therms',
    });
  });

  it('refuses a unit of another utility type', () => {
    expect(convertUsage('water', 5, 'therms', 'kgal', null)).toEqual({
      ok: false,
      field: 'unit',
      message: "unit 'therms' is not a unit of water (kgal, gallons, ccf, cf, m3)",
    });
  });
});
