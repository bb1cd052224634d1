import fs from 'node:fs';
import path from 'node:path';
import { ENERGYSTAR_MATCH_FILE, loadEnergyStarZipPairs, type EnergyStarZipPair } from './energystar';
import { loadUtilityReference, readCsv, REFERENCE_DIR, type UtilityRecord } from './reference';

// The real bundled files: zip_to_utility_energystar.csv.gz, utility_authorities_energystar.json,
// energystar_utility_match.csv and the EIA-861 2018 utilities.
describe('loadEnergyStarZipPairs on the bundled ENERGY STAR table', () => {
  let utilities: Map<string, UtilityRecord>;
  let pairs: EnergyStarZipPair[];
  let unmatchedSlugs: string[];
  const matchRows = readCsv(REFERENCE_DIR, ENERGYSTAR_MATCH_FILE);
  const authorities = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'utility_authorities_energystar.json'), 'utf8')) as Record<
    string,
    unknown
  >;

  beforeAll(() => {
    utilities = loadUtilityReference(REFERENCE_DIR).utilities;
    ({ pairs, unmatchedSlugs } = loadEnergyStarZipPairs(REFERENCE_DIR, utilities));
  });

  const at = (zip: string) => pairs.filter((p) => p.zipCode === zip).map(({ utilityId, predominant }) => ({ utilityId, predominant }));

  it('gives each ZIP code the EIA utilities checked by hand', () => {
    // Houston: CenterPoint Energy Houston Electric (EIA 8901), absent from the NREL tables.
    expect(at('77002')).toEqual([{ utilityId: '8901', predominant: true }]);
    // San Francisco: the City & County (predominant) and PG&E beside it.
    expect(at('94103')).toEqual(
      expect.arrayContaining([
        { utilityId: '16612', predominant: true },
        { utilityId: '14328', predominant: false },
      ]),
    );
    expect(at('02108')).toEqual([{ utilityId: '54913', predominant: true }]); // Eversource MA = NSTAR Electric
    expect(at('55401')).toEqual([{ utilityId: '13781', predominant: true }]); // Xcel MN = Northern States Power Co - Minnesota
    expect(at('60601')).toEqual([{ utilityId: '4110', predominant: true }]); // Commonwealth Edison
    expect(at('10001')).toEqual([{ utilityId: '4226', predominant: true }]); // Consolidated Edison Co-NY
    // PECO; Vicinity Energy (district steam, `none`) is dropped.
    expect(at('19103')).toEqual([{ utilityId: '14940', predominant: true }]);
    expect(utilities.get('8901')?.state).toBe('TX');
  });

  it('keeps one pair per ZIP code and EIA id', () => {
    const keys = pairs.map((p) => `${p.zipCode}|${p.utilityId}`);
    expect(new Set(keys).size).toBe(keys.length);
    // 67,617 rows before the ones below 00501 (116 map area ids, not ZIP codes) were dropped.
    expect(pairs).toHaveLength(67501);
    expect(pairs.every((p) => utilities.has(p.utilityId))).toBe(true);
  });

  it('has one match row per slug of the JSON, and no other', () => {
    const slugs = matchRows.map((r) => r.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.every((s) => s in authorities)).toBe(true);
    expect(slugs.sort()).toEqual(Object.keys(authorities).sort());
  });

  it('counts 1723 name matches, 418 reviewed, 1 gas and 17 none among the 2159 slugs', () => {
    const count = (how: string) => matchRows.filter((r) => r.how === how).length;
    expect([count('name'), count('reviewed'), count('gas'), count('none')]).toEqual([1723, 418, 1, 17]);
    expect(
      matchRows.filter((r) => r.how === 'name' || r.how === 'reviewed').every((r) => r.eia_id.split(' ').every((id) => utilities.has(id))),
    ).toBe(true);
    // a brand of two operating companies, resolved per ZIP code by county
    expect(matchRows.filter((r) => r.eia_id.includes(' ')).map((r) => [r.slug, r.eia_id])).toEqual([
      ['ma-national-grid', '11804 13206'],
      ['nv-nv-energy', '13407 17166'],
    ]);
    expect(matchRows.filter((r) => r.how === 'gas' || r.how === 'none').every((r) => r.eia_id === '')).toBe(true);
  });

  it('matches no gas utility to an electric one', () => {
    const gasSlug = (slug: string) => /(^|-)gas(-|$)/.test(slug) && !/(^|-)(electric|light)(-|$)/.test(slug);
    const matched = new Set(matchRows.filter((r) => r.eia_id !== '').map((r) => r.slug));
    expect(matchRows.filter((r) => gasSlug(r.slug)).map((r) => [r.slug, r.how])).toEqual([['ca-southern-cal-gas', 'gas']]);
    // Gas slugs of the ZIP table that the JSON lacks stay unmatched, e.g. CenterPoint's Minnesota gas company.
    const zipSlugs = new Set(readCsv(REFERENCE_DIR, 'zip_to_utility_energystar.csv.gz').map((r) => r.utility_id));
    const gasInZipTable = [...zipSlugs].filter(gasSlug);
    expect(gasInZipTable.length).toBeGreaterThan(40);
    expect(gasInZipTable.filter((s) => matched.has(s))).toEqual([]);
    expect(unmatchedSlugs).toEqual(expect.arrayContaining(['mn-centerpoint-energy', 'mn-xcel-energy-gas', 'nj-pseg-gas']));
  });

  it('lists as unmatched the 17 `none` slugs and the 84 slugs of the ZIP table missing from the JSON', () => {
    const none = matchRows.filter((r) => r.how === 'none').map((r) => r.slug);
    expect(unmatchedSlugs).toHaveLength(101);
    expect(unmatchedSlugs).toEqual(expect.arrayContaining(none));
    expect(unmatchedSlugs.filter((s) => !(s in authorities))).toHaveLength(84);
  });
});
