import { COUNTY_ZONES, isTimeZone, loadZipPlaces, timezoneOfZip } from './timezone';
import { countyKey } from '../utilities/counties';

describe("a property's time zone from its ZIP code", () => {
  it('by state, split-state counties and single ZIP codes (README "Time zone")', () => {
    const cases: Array<[string, string, string]> = [
      ['10001', 'NY', 'America/New_York'],
      ['80202', 'CO', 'America/Denver'],
      ['85004', 'AZ', 'America/Phoenix'],
      ['86515', 'AZ', 'America/Denver'], // Window Rock, Navajo Nation: daylight saving time
      ['47708', 'IN', 'America/Chicago'], // Evansville, Vanderburgh County
      ['46204', 'IN', 'America/Indiana/Indianapolis'],
      ['42101', 'KY', 'America/Chicago'], // Bowling Green, Warren County
      ['40202', 'KY', 'America/New_York'], // Louisville
      ['37902', 'TN', 'America/New_York'], // Knoxville
      ['37203', 'TN', 'America/Chicago'], // Nashville
      ['32501', 'FL', 'America/Chicago'], // Pensacola, Escambia County
      ['32456', 'FL', 'America/New_York'], // Port St. Joe, Gulf County
      ['83814', 'ID', 'America/Los_Angeles'], // Coeur d'Alene
      ['83702', 'ID', 'America/Boise'],
      ['97914', 'OR', 'America/Boise'], // Ontario, Malheur County
      ['79901', 'TX', 'America/Denver'], // El Paso
      ['49801', 'MI', 'America/Menominee'], // Iron Mountain, Dickinson County
      ['49837', 'MI', 'America/Detroit'],
      ['57701', 'SD', 'America/Denver'], // Rapid City
      ['69361', 'NE', 'America/Denver'], // Scottsbluff
      ['99546', 'AK', 'America/Adak'], // Adak
      ['99501', 'AK', 'America/Anchorage'],
      ['96813', 'HI', 'Pacific/Honolulu'],
      ['00901', 'PR', 'America/Puerto_Rico'],
    ];
    for (const [zip, state, zone] of cases) expect([zip, timezoneOfZip(zip, state)]).toEqual([zip, zone]);
  });

  it('every county the rules name is a county of GeoNames in that state (no misspelt rule)', () => {
    const have = new Set([...loadZipPlaces().values()].map((p) => `${p.state}|${countyKey(p.county)}`));
    const missing = Object.entries(COUNTY_ZONES).flatMap(([state, groups]) =>
      groups.flatMap((g) => g.counties.filter((c) => !have.has(`${state}|${countyKey(c)}`)).map((c) => `${state} ${c}`)),
    );
    expect(missing).toEqual([]);
  });

  it('IANA names', () => {
    expect(isTimeZone('America/Denver')).toBe(true);
    expect(isTimeZone('US/Eastern')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('EST5EDT; drop table')).toBe(false);
  });
});
