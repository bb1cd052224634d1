import { loadUtilityReference, REFERENCE_DIR, type UtilityReference } from './reference';
import { buildServingModel, namesPlace, type ServingModel } from './serving';
import { countyKey } from './counties';
import { normalizeBundle, readUrdbLines } from '../tariffs/bundled';

/**
 * The order of a ZIP code's utilities (data/reference/README.md, "Vintage, and who serves a ZIP code") on the
 * bundled EIA-861, ZIP and GeoNames data.
 */
describe('who serves a ZIP code, on the bundled data', () => {
  let ref: UtilityReference;
  let model: ServingModel;
  beforeAll(() => {
    ref = loadUtilityReference(REFERENCE_DIR);
    model = buildServingModel({ zipPairs: ref.zipPairs, area: ref.area! });
  });

  const pairsAt = (zip: string) => ref.zipPairs.filter((p) => p.zipCode === zip);
  const orderAt = (zip: string, state: string | null = null) =>
    model.order(
      zip,
      state,
      pairsAt(zip).map((p) => {
        const u = ref.utilities.get(p.utilityId);
        return { id: p.utilityId, name: u?.name ?? null, type: u?.type ?? null, customersServed: u?.customersServed ?? null };
      }),
    );
  const summary = (zip: string) => orderAt(zip).ranked.map((u) => [u.id, u.estimatedCustomersInCounty, u.primary]);

  it('county names of GeoNames and EIA-861 join', () => {
    expect(countyKey('Miami-Dade')).toBe(countyKey('Miami Dade'));
    expect(countyKey('St. Louis')).toBe(countyKey('St Louis'));
    expect(countyKey('Caddo Parish')).toBe(countyKey('Caddo'));
    expect(countyKey('Baltimore (city)')).toBe(countyKey('Baltimore City'));
    expect(countyKey('City and County of San Francisco')).toBe(countyKey('San Francisco'));
    expect(countyKey('Doña Ana')).toBe(countyKey('Dona Ana'));
    expect(countyKey('DeKalb')).toBe(countyKey('De Kalb'));
    expect(countyKey('Baltimore')).not.toBe(countyKey('Baltimore City'));
  });

  it('Columbus 43215: Ohio Power (EIA 14006) first and primary, from EIA-861 Franklin County; the municipal last', () => {
    // No ZIP table lists an investor-owned utility anywhere in Franklin County: the county rule adds the two that EIA-861
    // lists there and a table places in the county (Ohio Power, Ohio Edison), not Duke Energy Ohio (no table places it there).
    expect(pairsAt('43215').map((p) => [p.utilityId, p.source])).toEqual([
      ['4065', 'non_iou_2023'],
      ['13998', 'eia861_county_2018'],
      ['14006', 'eia861_county_2018'],
    ]);
    // Ohio Power: 1,484,321 customers in OH (parts A and C) x 63 Franklin ZIP codes / 848 (the 847 ZIP codes of its 61 OH
    // counties and 1 in Medina County a table lists it at); Ohio Edison: 1,050,129 x 63 / 641 (639 + 2); the City of
    // Columbus: 14,544 x 63 / 71 (Franklin's 63 and 8 ZIP codes of 4 other counties the tables list it at)
    expect(summary('43215')).toEqual([
      ['14006', 110274, true],
      ['13998', 103211, false],
      ['4065', 12905, false],
    ]);
    expect(orderAt('43215')).toMatchObject({ state: 'OH', county: 'Franklin', dropped: [] });
  });

  it('a merged utility resolves to its successor: Western Massachusetts Electric (20455) is NSTAR Electric (54913) in Springfield', () => {
    // the 2011 table lists 20455 at 01104; EIA-861 2018 Mergers: NSTAR took it over on 2017-12-31
    expect(pairsAt('01104').map((p) => [p.utilityId, p.source])).toEqual([
      ['3477', 'non_iou_2023'],
      ['54913', 'iou_2011'],
    ]);
    expect(ref.utilities.has('20455')).toBe(false);
    expect(ref.zipPairs.some((p) => p.utilityId === '20455')).toBe(false);
    expect(summary('01104')).toEqual([
      ['54913', 142538, true],
      ['3477', 25353, false],
    ]);
    // Maine Public Service (11522) is Emera Maine (1179): one pair, not two
    expect(pairsAt('04736').map((p) => p.utilityId)).toEqual(['1179']);
  });

  it("a merged utility's tariffs are filed under its successor: Columbus Southern Power's (4062) are Ohio Power's, for OH", () => {
    const lines = readUrdbLines(REFERENCE_DIR).filter((l) => l.record && String(l.record.eiaid) === '4062');
    expect(lines).toHaveLength(12);
    const bundle = normalizeBundle(lines, ref, new Date('2026-01-01T00:00:00Z'));
    expect(new Set(bundle.tariffs.map((t) => `${t.utilityId} ${t.utilityName} ${t.state}`))).toEqual(new Set(['14006 Ohio Power Co OH']));
    expect(
      bundle.warnings.filter((w) =>
        w.warning.startsWith('utility 4062 (Columbus Southern Power Co) merged into 14006 (Ohio Power Co) on 2011-12-31'),
      ),
    ).toHaveLength(12);
  });

  it('other metros: Seattle City Light before Puget Sound Energy in 98101, PG&E before the City & County in 94103', () => {
    // King County has 120 ZIP codes. Seattle City Light: 461,523 customers x 120 / 124 (King, and 4 ZIP codes of Snohomish County
    // a table lists it at); Puget Sound Energy: 1,149,781 x 120 / 357 (its 8 counties' 294 ZIP codes, and 63 elsewhere)
    expect(summary('98101')).toEqual([
      ['16868', 446635, true],
      ['15500', 386481, false],
    ]);
    expect(summary('94103')).toEqual([
      ['14328', 155537, true],
      ['16612', 3155, false],
    ]);
  });

  it("the ZIP code's own statement: an investor-owned utility the ENERGY STAR map alone marks predominant, and an NREL table lists there, is primary", () => {
    // Phoenix 85004: Salt River Project has more customers in Maricopa County, but APS serves downtown Phoenix
    expect(summary('85004')).toEqual([
      ['803', 461546, true],
      ['16572', 860177, false],
    ]);
    // Raleigh 27601: Duke Energy Progress, not Duke Energy Carolinas (larger in Wake County by the estimate)
    expect(summary('27601')).toEqual([
      ['3046', 137702, true],
      ['5416', 204691, false],
    ]);
    // Reno 89501: NV Energy's slug is Sierra Pacific Power in Washoe County (its EIA-861 territory), Nevada Power in Clark
    expect(summary('89501')).toEqual([['17166', 123579, true]]);
    expect(orderAt('89101').ranked[0]).toMatchObject({ id: '13407', primary: true });
    expect(pairsAt('89501').some((p) => p.utilityId === '13407')).toBe(false);
    // Nantucket: National Grid's Massachusetts slug is Nantucket Electric there
    expect(orderAt('02554').ranked[0]).toMatchObject({ id: '13206', primary: true });
    // not used: a public-power mark (Omaha: NPPD marked, OPPD serves), a mark of a utility no NREL table places at the
    // ZIP code (PG&E in Sacramento), two marks (Seattle)
    expect(summary('68102').map(([id, , primary]) => [id, primary])).toEqual([
      ['14127', true],
      ['13337', false],
    ]);
    expect(orderAt('95814').ranked[0]).toMatchObject({ id: '16534', primary: true });
    expect(orderAt('98101').ranked[0]).toMatchObject({ id: '16868', primary: true });
  });

  it("a city's own municipal utility, the only one both ZIP-level sources give at a ZIP code of that city, is primary", () => {
    // Burlington, VT 05401: the NREL 2023 table lists only Burlington Electric Department there and the ENERGY STAR map marks only
    // it; Green Mountain Power comes from the map's list alone and has more estimated customers in Chittenden County (22,643
    // against 21,005). BED's 21,005 EIA-861 customers over the 9 VT ZIP codes the NREL table lists it at are 2,334 a ZIP code,
    // against GMP's 22,643 over Chittenden's 26 ZIP codes, 871.
    expect(summary('05401')).toEqual([
      ['2548', 21005, true],
      ['7601', 22643, false],
    ]);
    expect(orderAt('05401').ranked[0]).toMatchObject({ markedPrimary: true });
    // Garland Power & Light in Garland (75040), not in Rowlett (75089), where the map marks it too but the ZIP code's place is
    // another city's, whose utility is Oncor's wires
    expect(orderAt('75040').ranked[0]).toMatchObject({ id: '6958', primary: true, markedPrimary: true });
    expect(orderAt('75089').ranked[0]).toMatchObject({ id: '44372', primary: true, markedPrimary: false });
    // San Francisco's own utility is marked at 94103 but serves 3,407 customers over the 54 ZIP codes the table lists it at, 63
    // a ZIP code, against PG&E's 3,111 a San Francisco ZIP code: it stays second (asserted above); so does the City of Columbus
    // at 43215 (231 a ZIP code against Ohio Power's 1,750), named for Columbus as the ZIP code's place is.
    expect(orderAt('43215').ranked.map((u) => [u.id, u.markedPrimary])).toEqual([
      ['14006', false],
      ['13998', false],
      ['4065', false],
    ]);
    // Not a municipal utility: a cooperative's mark is not used (Dixie Electric first in Baton Rouge by its estimate, not the mark)
    expect(orderAt('70801').ranked[0]).toMatchObject({ id: '5202', markedPrimary: false });
    expect(orderAt('68102').ranked[0]).toMatchObject({ id: '14127', markedPrimary: false });
  });

  it("a municipal utility's name begins with its place's name", () => {
    expect(namesPlace('City of Burlington Electric - (VT)', 'Burlington')).toBe(true);
    expect(namesPlace('Utility Board of the City of Key West, F', 'Key West')).toBe(true);
    expect(namesPlace('Los Angeles Department of Water & Power', 'Los Angeles')).toBe(true);
    expect(namesPlace('City of St. Marys - (OH)', 'Saint Marys')).toBe(true);
    expect(namesPlace('Los Angeles Department of Water & Power', 'Pacoima')).toBe(false);
    expect(namesPlace('City of Garland - (TX)', 'Rowlett')).toBe(false);
    expect(namesPlace('City of Greenville - (TX)', 'Green')).toBe(false);
    expect(namesPlace('City of Altus - (OK)', '')).toBe(false);
  });

  it('Texas wires utilities count their EIA-861 Reliability customers (they report no sales): Oncor in Dallas, CenterPoint in Houston', () => {
    expect(model.customersIn('44372', 'TX')).toBe(3_502_276);
    expect(summary('75201')).toEqual([['44372', 510942, true]]);
    expect(summary('77002')).toEqual([['8901', 1493582, true]]);
  });

  it("leaves out a utility EIA-861 2018 reports with no retail customer in the ZIP code's state; keeps one it does not report", () => {
    // The City of Escondido (5969) is an EIA-861 respondent with no retail customers: SDG&E serves Escondido.
    expect(model.customersIn('5969', 'CA')).toBe(0);
    const escondido = orderAt('92025');
    expect(escondido.dropped.map((u) => u.id)).toEqual(['5969']);
    expect(escondido.ranked[0]).toMatchObject({ id: '16609', primary: true });
    // A utility of another state listed at a ZIP code (Interstate Power and Light of Iowa in Minnesota) is left out there.
    const iowaUtility = { id: '9417', name: 'Interstate Power and Light Co', type: 'investor_owned', customersServed: 1 };
    expect(model.order('55401', null, [iowaUtility]).dropped).toEqual([iowaUtility]);
    // Bethel Utilities Corp (1651), which EIA-861 2018 does not report, stays, with no estimate.
    expect(summary('99545')).toEqual([['1651', null, true]]);
  });
});
