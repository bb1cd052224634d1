/**
 * `npx tsx scripts/match-energystar-utilities.ts`: writes
 * data/reference/energystar_utility_match.csv, which maps each utility slug of
 * utility_authorities_energystar.json (ENERGY STAR Portfolio Manager map, via
 * Rewiring America) to an EIA-861 2018 utility id.
 *
 * Every slug gets exactly one row, `how` being:
 * - `reviewed`: from REVIEWED below (checked by hand: name, state, ZIP codes);
 * - `gas`:      a gas utility (GAS below, or a slug with the word "gas" and neither
 *               "electric" nor "light" in it); never matched to an electric utility;
 * - `none`:     from NONE below: electric, but no EIA-861 2018 utility was found;
 * - `name`:     the slug's name and exactly one EIA utility's name are equal after
 *               `normaliseName`, and that utility serves the slug's state.
 * The script stops, listing them, when a slug gets none of these: review it and add it
 * to one of the lists. The hand lists win over a name match.
 *
 * The note of a matched row says how many of the slug's ZIP codes the NREL/OpenEI ZIP
 * tables also give to that EIA id (`NREL ZIPs: shared/slug's ZIPs/the id's ZIPs`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadUtilityReference, readCsv, REFERENCE_DIR, type UtilityRecord } from '../src/modules/utilities/reference';

export const MATCH_FILE = 'energystar_utility_match.csv';
const AUTHORITIES_FILE = 'utility_authorities_energystar.json';
const ZIP_FILE = 'zip_to_utility_energystar.csv.gz';

interface Authority {
  state: string;
  name: string;
}

/** Abbreviations that EIA-861 and ENERGY STAR spell differently, to one spelling. */
const SYNONYMS: Record<string, string> = {
  elec: 'electric',
  el: 'electric',
  coop: 'cooperative',
  assn: 'association',
  assoc: 'association',
  pwr: 'power',
  lt: 'light',
  lgt: 'light',
  util: 'utilities',
  utils: 'utilities',
  utility: 'utilities',
  comm: 'commission',
  commn: 'commission',
  dept: 'department',
  dep: 'department',
  pub: 'public',
  mun: 'municipal',
  muni: 'municipal',
  bd: 'board',
  sys: 'system',
  auth: 'authority',
  svc: 'service',
  services: 'service',
  dist: 'district',
  cnty: 'county',
  twp: 'township',
  mt: 'mount',
  st: 'saint',
  ft: 'fort',
  member: 'membership',
  members: 'membership',
  mem: 'membership',
  wks: 'works',
  irr: 'irrigation',
  rrl: 'rural',
  ut: 'utilities',
  dt: 'district',
  agny: 'agency',
  serv: 'service',
  svcs: 'service',
  govt: 'government',
  consol: 'consolidated',
  electrical: 'electric',
  electrification: 'electric',
  // initialisms, spelled out (in the spellings above)
  ec: 'electric cooperative',
  ecc: 'electric cooperative',
  eca: 'electric cooperative association',
  emc: 'electric membership',
  remc: 'rural electric membership',
  rec: 'rural electric cooperative',
  recc: 'rural electric cooperative',
  rea: 'rural electric association',
  epa: 'electric power association',
  pud: 'public utilities district',
  ppd: 'public power district',
};

/** Words that carry no identity: legal forms, articles. */
const DROPPED = new Set(['inc', 'co', 'corp', 'corporation', 'company', 'llc', 'ltd', 'lp', 'the', 'of', 'and']);

/**
 * A name reduced to its words, so that spelling variants compare equal: lower case;
 * apostrophes dropped ("People's" = "Peoples"); "&" = "and"; "Co-op" = "Coop"; punctuation to spaces; the slug's own state code
 * dropped (EIA writes "City of Akutan - (AK)"); runs of single letters joined
 * ("R E M C" = "REMC"); abbreviations and initialisms spelled out (SYNONYMS); legal
 * forms, "the", "of", "and" dropped (DROPPED); the words sorted, so that "City of X"
 * = "X (City of)" and "Electric Coop" = "Coop Electric" (both within one state); "No2" = "No 2".
 */
export function normaliseName(name: string, state: string): string {
  const words = name
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\bco-op\b/g, 'coop')
    .replace(/([a-z])(\d)/g, '$1 $2')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w && w !== state.toLowerCase());
  const joined: string[] = [];
  words.forEach((w, i) => {
    if (w.length === 1 && i > 0 && words[i - 1].length === 1) joined[joined.length - 1] += w;
    else joined.push(w);
  });
  return joined
    .flatMap((w) => (SYNONYMS[w] ?? w).split(' '))
    .filter((w) => !DROPPED.has(w))
    .sort()
    .join(' ');
}

/**
 * Gas utilities whose slug does not say "gas": slug -> why. These are in the ZIP table
 * but not (yet) in the JSON, so they get no row today; listed so that they never reach
 * the name match if the JSON gains them.
 */
const GAS: Record<string, string> = {
  'co-atmos-energy': 'Atmos Energy, a gas utility',
  'ma-liberty-utilities-ma': 'Liberty Utilities in MA is the gas company (Fall River area)',
  'mn-centerpoint-energy': "CenterPoint Energy's Minnesota company is its gas utility",
  'mn-city-of-duluth': 'Duluth Comfort Systems, the city gas utility (Minnesota Power serves Duluth with electricity)',
  'mn-minnesota-energy-resources': 'Minnesota Energy Resources, a gas utility',
  'or-avista': 'Avista serves only gas in Oregon',
  'or-nw-natural': 'NW Natural, a gas utility',
};

/**
 * Hand-reviewed matches: slug -> [EIA id, why]. Each was checked by name, state and ZIP
 * codes (the note's NREL ZIP counts). Brands of several operating companies (Xcel,
 * Eversource, National Grid, NV Energy, PacifiCorp, ...) go to the company serving the
 * slug's state; where one slug covers two in a state, the larger by customers.
 */
const REVIEWED: Record<string, [eia: string, why: string]> = {
  'ak-alaska-power': [
    '219',
    'Alaska Power Company is the electric subsidiary of Alaska Power & Telephone, reported to EIA as 219; its 2 ZIPs (Port Alexander, Meyers Chuck) are not in NREL',
  ],
  'ak-larsen-bay-utility': ['10716', 'City of Larsen Bay'],
  'ak-naterkak-light-plant': ['3422', "Naterkak Light Plant is Chefornak's city utility; the slug's only ZIP 99561 is Chefornak"],
  'ak-north-slope-borough': ['26616', "the borough's utility, North Slope Borough Power & Light"],
  'ak-pelican-utility-district': ['29297', 'Pelican Utility (Pelican, AK)'],
  'ak-st-paul-municipal-electric-utility': ['17898', 'City of Saint Paul (St Paul Island, ZIP 99660)'],
  'al-singing-river-electric-power-association': [
    '17252',
    'Singing River Electric Power Association renamed Singing River Electric Cooperative',
  ],
  'ar-south-central-arkansas-electric-cooperative': ['17540', 'EIA abbreviates "South Central Ark El Coop"'],
  'az-dixie-power': ['40165', 'DixiePower is the trade name of Dixie Escalante Rural Electric Association (AZ/UT)'],
  'az-mohave-electric-cooperative': ['21538', 'EIA name truncated ("Mohave Electric Cooperative, I")'],
  'az-uni-source-energy-services': ['19728', "UniSource Energy Services' electric company is UNS Electric, Inc"],
  'ca-alameda-municipal-power': ['207', 'municipal utility of Alameda'],
  'ca-anaheim-public-utilities': ['590', 'municipal utility of Anaheim'],
  'ca-burbank-water-and-power': ['2507', 'municipal utility of Burbank'],
  'ca-central-coast-community-energy': ['61432', 'Monterey Bay Community Power (a CCA) renamed Central Coast Community Energy in 2021'],
  'ca-city-of-palo-alto-utilities': ['14401', 'municipal utility of Palo Alto'],
  'ca-glendale-water-and-power': ['7294', 'municipal utility of Glendale'],
  'ca-lodi-electric-utility': ['11124', 'municipal utility of Lodi'],
  'ca-pacific-power': ['14354', 'Pacific Power is the PacifiCorp brand in CA, OR, WA; PacifiCorp is one EIA utility'],
  'ca-pasadena-water-and-power': ['14534', 'municipal utility of Pasadena'],
  'ca-peninsula-clean-energy': ['60402', 'CCA of San Mateo County, EIA "Peninsula Clean Energy Authority"'],
  'ca-rancho-cucamonga-ca-city-of': ['56224', 'municipal utility; EIA spells it differently'],
  'ca-riverside-public-utilities': ['16088', 'municipal utility of Riverside'],
  'ca-roseville-electric': ['16295', 'municipal utility of Roseville'],
  'ca-sierra-pacific-power': [
    '57483',
    "Sierra Pacific Power's California (Lake Tahoe) territory has been Liberty Utilities (CalPeco) since 2011; Sierra Pacific Power (17166) serves only NV in EIA-861 2018; the ZIPs are South Lake Tahoe's, also listed for ca-liberty-utilities",
  ],
  'ca-silicon-valley-power': ['16655', "Silicon Valley Power is the City of Santa Clara's electric utility"],
  'co-black-hills-energy': [
    '56146',
    "Black Hills Energy's Colorado electric company is Black Hills Colorado Electric, LLC (Pueblo, Canon City)",
  ],
  'co-burlington-municipal': ['2550', 'municipal utility of Burlington'],
  'co-center-municipal': ['3227', 'municipal utility of Center'],
  'co-city-of-aspen-electric': ['918', 'municipal utility of Aspen'],
  'co-colorado-springs-utilities': ['3989', 'municipal utility of Colorado Springs'],
  'co-core-electric-cooperative': ['9336', 'Intermountain Rural Electric Association renamed CORE Electric Cooperative in 2021'],
  'co-delta-municipal-light-and-power': ['5036', 'municipal utility of Delta'],
  'co-estes-park-power-and-communications': ['5997', "Town of Estes Park's light and power utility"],
  'co-fleming-electric': ['6418', 'municipal utility of Fleming'],
  'co-fort-collins-utilities': ['6604', 'municipal utility of Fort Collins'],
  'co-glenwood-springs-electric': ['7300', 'municipal utility of Glenwood Springs'],
  'co-granada-municipal': ['7478', 'municipal utility of Granada'],
  'co-haxtun-municipal': ['8311', 'municipal utility of Haxtun'],
  'co-holly-municipal': ['8751', 'municipal utility of Holly'],
  'co-holy-cross-energy': ['8773', 'Holy Cross Electric Association does business as Holy Cross Energy'],
  'co-holyoke-electric-department': ['8777', 'municipal utility of Holyoke'],
  'co-julesburg-municipal': ['9928', 'municipal utility of Julesburg'],
  'co-la-junta-municipal-utilities': ['10536', 'municipal utility of La Junta'],
  'co-lamar-utilities': ['10633', 'municipal utility of Lamar'],
  'co-las-animas-municipal': ['10730', 'municipal utility of Las Animas'],
  'co-longmont-power-and-communications': ['11187', 'municipal utility of Longmont'],
  'co-loveland-water-and-power': ['11256', 'municipal utility of Loveland'],
  'co-lyons-municipal': ['11376', 'municipal utility of Lyons'],
  'co-oak-creek-electric': ['14054', 'municipal utility of Oak Creek'],
  'co-san-isabel-electric': ['16616', 'San Isabel Electric Association'],
  'co-southwestern-electric-cooperative': ['17715', 'Southwestern Electric Cooperative of Clayton NM, which EIA lists in CO, NM, OK, TX'],
  'co-springfield-municipal': ['17834', 'municipal utility of Springfield'],
  'co-trinidad-municipal': ['19204', 'municipal utility of Trinidad'],
  'co-wray-municipal': ['21021', 'municipal utility of Wray'],
  'co-xcel-energy': ['15466', "Xcel Energy's Colorado operating company is Public Service Co of Colorado"],
  'co-yuma-electric-department': ['21143', 'municipal utility of Yuma'],
  'ct-eversource': ['4176', "Eversource's Connecticut electric company is Connecticut Light & Power"],
  'ct-groton-utilities': ['7716', 'Groton Department of Utilities'],
  'ct-jewett-city-public-utilities': ['9734', 'municipal utility of Jewett City'],
  'ct-norwich-public-utilities': ['13831', 'municipal utility of Norwich'],
  'ct-south-norwalk-electric-and-water': ['17569', 'municipal utility of South Norwalk'],
  'dc-pepco': ['15270', 'Pepco is Potomac Electric Power Co'],
  'de-lewes-bpw': ['10935', "Lewes Board of Public Works, the City of Lewes's utility"],
  'fl-city-of-key-west': ['10226', 'Keys Energy Services, the Utility Board of the City of Key West'],
  'fl-florida-keys-electric-cooperative': ['6443', 'Florida Keys Electric Cooperative Association'],
  'fl-mount-dora-utilities': ['13033', 'municipal utility of Mount Dora'],
  'fl-vero-beach-municipal-utilities': [
    '19804',
    "City of Vero Beach's electric utility (sold to FPL in Dec 2018, after the EIA-861 2018 year)",
  ],
  'fl-west-florida-electric-cooperative': ['20371', 'West Florida Electric Cooperative Association'],
  'ga-albany-water-gas-and-light-comm': ['230', 'Albany Utility Board is the successor of Albany Water, Gas & Light Commission'],
  'ga-city-of-chattanooga': ['3408', 'EPB of Chattanooga (City of Chattanooga) serves north Georgia too; EIA lists it in GA and TN'],
  'ga-jefferson-energy-cooperative': ['9689', 'Jefferson Electric Membership Corp does business as Jefferson Energy Cooperative'],
  'ia-farmers-electric-cooperative': [
    '6112',
    "Farmers Electric Cooperative of Greenfield (EIA territory Adair, Audubon, Cass, Guthrie, Madison, Union), where the slug's ZIPs are; the other Iowa Farmers Electric Coop (6168) is Kalona (Iowa, Johnson, Washington counties)",
  ],
  'ia-guthrie-county-rec': ['7750', 'Guthrie County Rural Electric Cooperative Association'],
  'ia-interstate-power-and-light': ['9417', "Alliant Energy's Iowa operating company is Interstate Power and Light"],
  'ia-maquoketa-valley-electric-cooperative': ['12642', 'Maquoketa Valley Rural Electric Cooperative'],
  'ia-mi-energy': ['19157', 'MiEnergy Cooperative'],
  'ia-tri-county-electric-cooperative': [
    '19157',
    "Tri-County Electric Cooperative (Rushford MN) merged with Hawkeye REC into MiEnergy Cooperative in 2017; the slug's ZIPs (Decorah area) are all MiEnergy's in NREL",
  ],
  'ia-united-electric-cooperative': [
    '22646',
    'United Electric Cooperative of Savannah MO, which EIA lists in IA and MO (southern Iowa ZIPs)',
  ],
  'ia-woodbury-county-rec': ['20951', 'Woodbury County Rural Electric Cooperative Association'],
  'id-avista-utilities': ['20169', 'Avista Utilities is Avista Corp'],
  'id-rocky-mountain-power': ['14354', 'Rocky Mountain Power is the PacifiCorp brand in UT, WY, ID; PacifiCorp is one EIA utility'],
  'il-jo-carroll-energy-cooperative': ['9750', 'Jo-Carroll Energy, Inc, a cooperative'],
  'il-peru-municipal-electric-department': ['14840', 'municipal utility of Peru'],
  'il-rantoul-utilities': ['15686', 'municipal utility of Rantoul'],
  'il-rural-electric-convenience-cooperative': ['16420', 'EIA name truncated ("Rural Electric Conven Coop")'],
  'il-springfield-water-light-and-power-dept': ['17828', 'municipal utility of Springfield'],
  'in-carroll-county-remc': ['27599', 'Carroll County REMC merged with White County REMC into Carroll White REMC in 2008'],
  'in-dublin-in-town-of': ['5392', 'Dublin (IN) Municipal Electric Utility'],
  'in-nipsco': ['13756', 'NIPSCO is Northern Indiana Public Service Co'],
  'in-southern-indiana-gas-and-electric': [
    '17633',
    'Southern Indiana Gas & Electric (CenterPoint Energy Indiana South), its electric business',
  ],
  'in-tipton-municipal-utilities': ['18942', 'Tipton Municipal Electric Utility'],
  'in-united-rural-electric-member-corp': [
    '59505',
    'United REMC merged with Wabash County REMC into Heartland REMC in 2014 (EIA territory includes Adams, Huntington, Wabash counties)',
  ],
  'in-utilities-district-of-western-indiana-remc': ['19667', 'EIA abbreviates "Utilities Dist-Western IN REMC"'],
  'in-wabash-county-remc': ['59505', 'Wabash County REMC merged with United REMC into Heartland REMC in 2014'],
  'ks-evergy-formerly-kcp-and-l': ['10000', 'Evergy Metro, formerly Kansas City Power & Light, in Kansas'],
  'ks-kaw-valley-electric-cooperative': [
    '10019',
    'Kaw Valley and Leavenworth-Jefferson Electric Cooperatives merged into FreeState Electric Cooperative in 2016',
  ],
  'ks-leavenworth-jefferson-electric-cooperative': [
    '10019',
    'Kaw Valley and Leavenworth-Jefferson Electric Cooperatives merged into FreeState Electric Cooperative in 2016',
  ],
  'ky-corbin-utilities-commission': ['4341', 'Corbin City Utilities Commission'],
  'la-entergy-gulf-states-louisiana': [
    '11241',
    'Entergy Gulf States Louisiana merged into Entergy Louisiana LLC in 2015; its old id 55936 appears only in the 2011 IOU ZIP table, with no EIA-861 2018 data',
  ],
  'la-lafayette-utilities-system': ['9096', "Lafayette Utilities System, the City of Lafayette's utility"],
  'ma-ashburnham-municipal-light-plant': ['902', 'municipal utility of Ashburnham'],
  'ma-boylston-municipal-light-plant': ['2086', 'municipal utility of Boylston'],
  'ma-braintree-electric-light-department': ['2144', 'municipal utility of Braintree'],
  'ma-chester-municipal-light-plant': ['3447', 'municipal utility of Chester'],
  'ma-city-of-chicopee': ['3477', 'municipal utility of Chicopee'],
  'ma-city-of-hingham': ['8796', 'municipal utility of Hingham'],
  'ma-city-of-holyoke': ['8774', "Holyoke Gas & Electric, the City of Holyoke's utility"],
  'ma-city-of-marblehead': ['11624', 'municipal utility of Marblehead'],
  'ma-city-of-norwood': ['13839', 'municipal utility of Norwood'],
  'ma-city-of-peabody': ['14605', 'municipal utility of Peabody'],
  'ma-city-of-taunton': ['18488', 'municipal utility of Taunton'],
  'ma-city-of-westfield': ['20481', "Westfield Gas + Electric, the City of Westfield's utility"],
  'ma-eversource': [
    '54913',
    "Eversource's Massachusetts electric company is NSTAR Electric; Western Massachusetts Electric (20455) merged into it on 2018-01-01 and has no EIA-861 2018 data of its own (49 of the slug's ZIPs are WMECO's in the 2011 IOU table), so NSTAR Electric, the larger, is chosen",
  ],
  'ma-fitchburg-gas-and-electric-light': ['6374', "Unitil's Massachusetts electric company is Fitchburg Gas & Electric Light"],
  'ma-georgetown-municipal-light-plant': ['7130', 'municipal utility of Georgetown'],
  'ma-groton-electric-light-dept': ['7715', 'municipal utility of Groton'],
  'ma-groveland-municipal-light-plant': ['7723', 'municipal utility of Groveland'],
  'ma-holden-municipal-light-plant': ['8715', 'municipal utility of Holden'],
  'ma-hull-municipal-light-plant': ['8797', 'Hull Municipal Light Plant'],
  'ma-merrimac-municipal-light-plant': ['12296', 'municipal utility of Merrimac'],
  'ma-national-grid': [
    '11804 13206',
    "National Grid's Massachusetts electric companies are Massachusetts Electric (1,317,661 customers) and Nantucket Electric (13206, 13,579 customers; 02554 is in this slug): at each ZIP code the one whose EIA-861 Service Territory lists its county",
  ],
  'ma-paxton-municipal-light-department': ['14585', 'municipal utility of Paxton'],
  'ma-princeton-municipal-light-dept': ['15371', 'municipal utility of Princeton'],
  'ma-rowley-municipal-light-plant': ['16377', 'municipal utility of Rowley'],
  'ma-russell-municipal-light-plant': ['16438', 'municipal utility of Russell'],
  'ma-templeton-municipal-light-plant': ['18546', 'municipal utility of Templeton'],
  'ma-town-of-belmont': ['1523', 'municipal utility of Belmont'],
  'ma-town-of-concord': ['4147', 'municipal utility of Concord'],
  'ma-town-of-danvers': ['5480', "Danvers Electric, the Town of Danvers's utility"],
  'ma-town-of-hudson': ['8973', 'municipal utility of Hudson'],
  'ma-town-of-ipswich': ['9442', 'municipal utility of Ipswich'],
  'ma-town-of-littleton': ['11085', 'municipal utility of Littleton'],
  'ma-town-of-mansfield': ['11586', 'municipal utility of Mansfield'],
  'ma-town-of-middleton': ['12477', 'municipal utility of Middleton'],
  'ma-town-of-north-attleborough': ['13679', 'municipal utility of North Attleborough'],
  'ma-town-of-reading': ['15748', 'municipal utility of Reading'],
  'ma-town-of-shrewsbury': ['17127', 'municipal utility of Shrewsbury'],
  'ma-town-of-south-hadley': ['17560', 'municipal utility of South Hadley'],
  'ma-town-of-sterling': ['18087', 'municipal utility of Sterling'],
  'ma-town-of-wakefield': ['19979', 'municipal utility of Wakefield'],
  'ma-town-of-wellesley': ['20310', 'municipal utility of Wellesley'],
  'ma-west-boylston-mlp': ['20326', 'municipal utility of West Boylston'],
  'md-easton-utilities': ['5625', 'Easton Utilities Commission'],
  'md-pepco': ['15270', 'Pepco is Potomac Electric Power Co'],
  'me-madison-electric-works': ['11477', 'municipal utility of Madison'],
  'me-versant-power': ['1179', 'Emera Maine (Bangor Hydro and Maine Public Service districts) renamed Versant Power in 2020'],
  'mi-bay-city-electric-light-and-power': ['1366', 'municipal utility of Bay City'],
  'mi-city-of-holland': ['8723', "Holland Board of Public Works, the City of Holland's utility"],
  'mi-dte': ['5109', "DTE's electric company is DTE Electric Company"],
  'mi-hillsdale-board-of-public-utilities': ['8631', 'Hillsdale Board of Public Works, the city utility'],
  'mi-lansing-board-of-water-and-light': ['10704', "Lansing Board of Water & Light, the City of Lansing's utility"],
  'mi-marshall-municipal-utilities': ['11713', 'municipal utility of Marshall'],
  'mi-thumb-electric-cooperative': ['18895', 'Thumb Electric Cooperative of Michigan'],
  'mi-traverse-city-light-and-power': ['19125', 'municipal utility of Traverse City'],
  'mi-we-energies': [
    '60631',
    "We Energies' Upper Michigan customers moved to Upper Michigan Energy Resources Corp on 2017-01-01; Wisconsin Electric Power keeps 1 Michigan customer in EIA-861 2018",
  ],
  'mi-wisconsin-public-service-corp': [
    '60631',
    "Wisconsin Public Service's Michigan customers moved to Upper Michigan Energy Resources Corp on 2017-01-01; WPS (20860) serves only WI in EIA-861 2018",
  ],
  'mi-wyandotte-municipal-services': ['21048', 'Wyandotte Municipal Service Commission'],
  'mi-xcel-energy': ['13780', "Xcel Energy serves Michigan's western Upper Peninsula through Northern States Power Co (Wisconsin)"],
  'mn-adrian-public-utilities': ['150', 'municipal utility; EIA names its commission'],
  'mn-agralite-cooperative': ['155', 'Agralite Electric Cooperative'],
  'mn-aitkin-public-utilities': ['174', 'municipal utility; EIA names its commission'],
  'mn-alexandria-light-and-power': ['295', 'municipal utility of Alexandria'],
  'mn-austin-utilities': ['1009', 'municipal utility of Austin'],
  'mn-barnesville-municipal-power': ['1233', 'municipal utility of Barnesville'],
  'mn-benco': ['1884', 'BENCO Electric Cooperative'],
  'mn-benson-municipal-utilities': ['1573', 'municipal utility of Benson'],
  'mn-biwabik-public-utilities': ['1753', 'municipal utility of Biwabik'],
  'mn-blooming-prairie-public-utilities': ['1871', 'municipal utility of Blooming Prairie'],
  'mn-blue-earth-light-and-water-dept': ['1883', 'Blue Earth Light & Water'],
  'mn-breckenridge-public-utilities': ['2182', 'municipal utility of Breckenridge'],
  'mn-brown-co-rural-electrical-assn': ['2316', '"Brown Co" is Brown County here'],
  'mn-brownton-municipal-light-and-power': ['2412', 'municipal utility of Brownton'],
  'mn-buhl-public-utilities': ['2491', 'municipal utility of Buhl'],
  'mn-ceylon-public-utilities': ['3356', 'municipal utility of Ceylon'],
  'mn-city-of-brewster-light-and-power': ['2206', 'municipal utility of Brewster'],
  'mn-city-of-caledonia-electric-dept': ['2810', 'municipal utility of Caledonia'],
  'mn-city-of-ely-ely-utilities-commission': ['5841', 'City of Ely'],
  'mn-city-of-henning-electric-dept': ['8459', 'municipal utility of Henning'],
  'mn-city-of-peterson-electric-system': ['14841', 'municipal utility of Peterson'],
  'mn-city-of-randall-electric': ['15665', 'municipal utility of Randall'],
  'mn-cooperative-light-and-power': ['4346', 'Cooperative Light & Power Association of Lake County (Two Harbors)'],
  'mn-crow-wing-coop-power-and-light-inc': ['4577', 'EIA name truncated ("Crow Wing Cooperative Power & Light Comp")'],
  'mn-detroit-lakes-public-utility': ['5111', 'municipal utility of Detroit Lakes'],
  'mn-east-grand-forks-water-and-light-dept': ['5575', 'municipal utility of East Grand Forks'],
  'mn-eitzen-light-and-power': ['5692', 'municipal utility of Eitzen'],
  'mn-elbow-lake-municipal-power': ['5732', 'municipal utility of Elbow Lake'],
  'mn-elk-river-municipal-utilities': ['5773', 'municipal utility of Elk River'],
  'mn-fairfax-municipal': ['6138', 'municipal utility of Fairfax'],
  'mn-fairmont-public-utilities': ['6151', 'municipal utility; EIA names its commission'],
  'mn-fosston-municipal-utilities': ['6627', 'municipal utility of Fosston'],
  'mn-gilbert-water-and-light': ['7194', 'municipal utility of Gilbert'],
  'mn-grand-marais-public-utilities': ['7487', 'municipal utility of Grand Marais'],
  'mn-grove-city-electric-dept': ['7732', 'municipal utility of Grove City'],
  'mn-halstad-municipal-utilities': ['7969', 'municipal utility of Halstad'],
  'mn-hawley-public-utilities': ['8307', 'municipal utility; EIA names its commission'],
  'mn-janesville-municipal-utility': ['9650', 'municipal utility of Janesville'],
  'mn-lake-city-utility-board': ['10595', 'municipal utility of Lake City'],
  'mn-lake-crystal-municipal-utilities': ['10596', 'municipal utility of Lake Crystal'],
  'mn-lake-park-public-utilities': ['10609', 'municipal utility of Lake Park'],
  'mn-lakefield-municipal-utilities': ['10622', 'municipal utility of Lakefield'],
  'mn-lanesboro-public-utility': ['10685', 'municipal utility; EIA names its commission'],
  'mn-le-sueur-municipal-utilities': ['10814', 'municipal utility of Le Sueur'],
  'mn-madelia-municipal-light-and-power': ['29305', 'municipal utility of Madelia'],
  'mn-madison-municipal-utilities': ['11482', 'municipal utility of Madison'],
  'mn-marshall-municipal-utilities': ['11731', 'municipal utility of Marshall'],
  'mn-mille-lacs-electric-coop': ['12546', 'Mille Lacs Electric Cooperative renamed Mille Lacs Energy Cooperative'],
  'mn-minnesota-power-co': ['12647', 'Minnesota Power is the utility division of ALLETE, Inc'],
  'mn-minnesota-valley-coop-light-and-power-assoc': ['40304', 'Minnesota Valley Cooperative Light & Power Association'],
  'mn-moorhead-public-service': ['12894', "Moorhead Public Service, the City of Moorhead's utility"],
  'mn-mora-municipal-utilities': ['12900', 'municipal utility of Mora'],
  'mn-mountain-iron-water-and-light-dept': ['13044', 'municipal utility of Mountain Iron'],
  'mn-mountain-lake-municipal-utilities': ['13048', 'municipal utility of Mountain Lake'],
  'mn-nashwauk-public-utilities': ['13219', 'municipal utility of Nashwauk'],
  'mn-new-ulm-public-utilities': ['13488', 'municipal utility; EIA names its commission'],
  'mn-ortonville-light-department': ['14196', 'municipal utility of Ortonville'],
  'mn-owatonna-public-utilities': ['14246', 'municipal utility of Owatonna'],
  'mn-peoples-energy-cooperative': ['14468', "People's Cooperative Services renamed People's Energy Cooperative"],
  'mn-pierz-utilities': ['15041', 'municipal utility of Pierz'],
  'mn-preston-public-utilities': ['15348', 'municipal utility; EIA names its commission'],
  'mn-princeton-public-utilities': ['15387', 'Princeton Public Utilities Commission'],
  'mn-proctor-public-utilities': ['15460', 'municipal utility; EIA names its commission'],
  'mn-redwood-falls-public-utilities': ['15793', 'Redwood Falls Public Utilities Commission'],
  'mn-roseau-municipal-water-and-light': ['16285', 'municipal utility of Roseau'],
  'mn-sauk-centre-public-utilities': ['16679', 'municipal utility of Sauk Centre'],
  'mn-shakopee-public-utilities': ['16971', 'municipal utility; EIA names its commission'],
  'mn-shelly-municipal-light-dept': ['17074', 'municipal utility of Shelly'],
  'mn-sioux-valley-energy': ['17267', 'Sioux Valley Energy is Sioux Valley-Southwestern Electric Cooperative (MN/SD)'],
  'mn-sleepy-eye-public-utility': ['17320', 'municipal utility; EIA names its commission'],
  'mn-st-charles-light-and-water': ['17862', 'municipal utility of St Charles'],
  'mn-st-james-municipal-light-and-power': ['17876', 'municipal utility of St James'],
  'mn-st-peter-municipal-utilities': ['17900', 'municipal utility of Saint Peter'],
  'mn-stephen-electric-dept': ['18063', 'municipal utility of Stephen'],
  'mn-thief-river-falls-municipal-utility': ['18820', 'municipal utility of Thief River Falls'],
  'mn-truman-public-utilities': ['19237', 'municipal utility; EIA names its commission'],
  'mn-virginia-dept-of-public-utilities': ['19883', 'municipal utility of Virginia'],
  'mn-wadena-light-and-water': ['19947', 'municipal utility of Wadena'],
  'mn-warroad-municipal-light-and-power': ['20134', 'municipal utility of Warroad'],
  'mn-waseca-utility': ['20136', 'municipal utility of Waseca'],
  'mn-wells-public-utilities': ['29295', 'municipal utility of Wells'],
  'mn-westbrook-municipal-light-and-power': ['20430', 'municipal utility of Westbrook'],
  'mn-windom-municipal-utilities': ['20806', 'municipal utility of Windom'],
  'mn-worthington-public-utilities': ['21013', 'municipal utility of Worthington'],
  'mn-xcel-energy': ['13781', "Xcel Energy's Minnesota operating company is Northern States Power Co - Minnesota"],
  'mo-ameren-missouri': ['19436', 'Ameren Missouri is Union Electric Co'],
  'mo-carroll-electric-cooperative-corp': ['3093', 'Carroll Electric Cooperative of Berryville AR, which EIA lists in AR and MO'],
  'mo-empire-district-electric': ['5860', 'Empire District Electric (Liberty Utilities) in Missouri'],
  'mo-evergy-formerly-kcp-and-l': [
    '10000',
    'Evergy Metro, formerly Kansas City Power & Light, in Missouri (KCP&L Greater Missouri Operations has its own slug)',
  ],
  'mo-west-plains-water-and-electric-dept': ['20392', 'municipal utility of West Plains'],
  'ms-greenwood-utilities': ['7651', 'Greenwood Utilities Commission'],
  'ms-northcentral-electric-cooperative': [
    '13735',
    'Northcentral Mississippi Electric Power Association renamed Northcentral Electric Cooperative',
  ],
  'ms-singing-river-electric-power-association': [
    '17252',
    'Singing River Electric Power Association renamed Singing River Electric Cooperative',
  ],
  'mt-avista-utilities': ['20169', 'Avista Utilities is Avista Corp'],
  'mt-black-hills-power': ['19545', 'Black Hills Power, Inc'],
  'mt-lower-yellowstone-rural-electric-cooperative': ['11272', 'Lower Yellowstone Rural Electric Association'],
  'mt-mdu-resources-group': ['12199', "MDU Resources Group's electric utility is Montana-Dakota Utilities Co"],
  'mt-north-western-corp': ['12825', "NorthWestern Corp's Montana company, NorthWestern Energy LLC"],
  'nc-blue-ridge-mountain-emc': ['1891', 'Blue Ridge Mountain EMC of Young Harris GA, which EIA lists in GA and NC'],
  'nc-carteret-craven-electric-cooperative': ['3107', 'Carteret-Craven Electric Membership Corp'],
  'nc-dominion-energy': ['19876', 'Dominion Energy North Carolina is Virginia Electric & Power Co'],
  'nc-fayetteville-pwc': ['6235', 'Fayetteville Public Works Commission'],
  'nc-progress-energy-carolinas': ['3046', 'Progress Energy Carolinas was renamed Duke Energy Progress in 2013'],
  'nc-town-of-high-point': ['8571', 'High Point electric utility; EIA spells "Town of High Point"'],
  'nd-lower-yellowstone-rural-electric-cooperative': ['11272', 'Lower Yellowstone Rural Electric Association'],
  'nd-roughrider-electric-cooperative': ['55959', 'EIA name truncated ("Roughrider Electric Cooperativ")'],
  'nd-xcel-energy': ['13781', 'Xcel Energy serves ND through Northern States Power Co - Minnesota'],
  'nh-eversource': ['15472', "Eversource's New Hampshire electric company is Public Service Co of New Hampshire"],
  'nh-liberty-utilities': ['26510', 'Liberty Utilities (Granite State Electric) in NH'],
  'nh-littleton-electric-light-department': ['11196', 'municipal utility of Littleton'],
  'nj-public-service-electric-and-gas': ['15477', 'PSE&G is Public Service Electric & Gas Co'],
  'nj-rockland-electric-company': ['16213', "Orange & Rockland's New Jersey company is Rockland Electric Co"],
  'nm-northern-rio-arriba-electric-cooperative': ['13777', 'Northern Rio Arriba Electric Cooperative'],
  'nm-pnm': ['15473', 'PNM is Public Service Co of New Mexico'],
  'nm-xcel-energy': ['17718', "Xcel Energy's New Mexico operating company is Southwestern Public Service Co"],
  'nv-nv-energy': [
    '13407 17166',
    "NV Energy's two companies are Nevada Power (934,370 customers, southern Nevada) and Sierra Pacific Power (17166, 347,199, northern Nevada): at each ZIP code the one whose EIA-861 Service Territory lists its county",
  ],
  'ny-con-edison': ['4226', 'Con Edison is Consolidated Edison Co of New York'],
  'ny-massena-electric': ['11811', 'municipal utility of Massena'],
  'ny-national-grid': ['13573', "National Grid's New York electric company is Niagara Mohawk Power"],
  'ny-nyseg': ['13511', 'NYSEG is New York State Electric & Gas Corp'],
  'ny-orange-and-rockland': ['14154', 'Orange & Rockland Utilities, Inc (its NJ company Rockland Electric has its own slug)'],
  'ny-penelec': ['14711', 'Penelec is Pennsylvania Electric Co (FirstEnergy), which EIA lists in NY too'],
  'ny-pseg-long-island': ['11171', "PSEG Long Island operates the Long Island Power Authority's system; EIA-861 reports LIPA"],
  'ny-salamanca-board-of-public-utilities': ['16549', 'municipal utility of Salamanca'],
  'oh-aep-ohio': ['14006', 'AEP Ohio is Ohio Power Co'],
  'oh-aes-ohio': ['4922', 'AES Ohio is Dayton Power & Light Co'],
  'oh-brewster-municipal-electric': ['2205', 'municipal utility of Brewster'],
  'oh-city-of-columbus-department-of-public-utilities': ['4065', 'municipal utility of Columbus'],
  'oh-city-of-st-marys': ['17891', 'municipal utility of St Marys'],
  'oh-city-of-wadsworth': ['19951', 'municipal utility of Wadsworth'],
  'oh-city-of-wapakoneta': ['20077', 'municipal utility of Wapakoneta'],
  'oh-georgetown': ['7131', 'municipal utility of Georgetown'],
  'oh-hamilton-dept-of-public-utilities': ['7977', 'municipal utility of Hamilton'],
  'oh-jackson-center': ['9572', "Village of Jackson Center's municipal electric system"],
  'oh-lakeview-water-light': ['10616', 'municipal utility of Lakeview'],
  'oh-licking-rural-electric': ['10668', 'Licking Rural Electric does business as The Energy Cooperative'],
  'oh-napoleon-light-power': ['13209', 'municipal utility of Napoleon'],
  'oh-oak-harbor': ['13932', 'municipal utility of Oak Harbor'],
  'oh-oberlin-municipal-light-power': ['13949', 'municipal utility of Oberlin'],
  'oh-the-illuminating-company': ['3755', 'The Illuminating Company is Cleveland Electric Illuminating Co (FirstEnergy)'],
  'oh-village-of-edgerton': ['5653', 'municipal utility of Edgerton'],
  'oh-village-of-minster': ['12660', 'municipal utility of Minster'],
  'oh-village-of-versailles': ['19805', 'municipal utility of Versailles'],
  'oh-village-of-wellington-utilities': ['20313', 'municipal utility of Wellington'],
  'ok-caddo-electric-cooperative': [
    '60482',
    'Caddo Electric Cooperative merged with Kiwash Electric Cooperative into CKenergy Electric Cooperative (EIA territory includes Caddo County)',
  ],
  'ok-ozarks-electric-cooperative-corp': ['14289', 'Ozarks Electric Cooperative of Fayetteville AR, which EIA lists in AR and OK'],
  'ok-southwestern-electric-cooperative': ['17715', 'Southwestern Electric Cooperative of Clayton NM, which EIA lists in CO, NM, OK, TX'],
  'or-blachly-lane-electric-cooperative': ['1736', 'Blachly-Lane County Cooperative Electric Association'],
  'or-central-lincoln': ['3264', "Central Lincoln People's Utility District"],
  'or-city-of-ashland': ['907', 'municipal utility of Ashland'],
  'or-city-of-forest-grove': ['6582', 'municipal utility of Forest Grove'],
  'or-city-of-hermiston': ['8515', "Hermiston Energy Services, the City of Hermiston's utility"],
  'or-city-of-milton-freewater': ['12615', 'municipal utility of Milton-Freewater'],
  'or-city-of-monmouth': ['12789', 'municipal utility of Monmouth'],
  'or-clatskanie-pud': ['28541', "Clatskanie People's Utility District"],
  'or-columbia-power-cooperative-association': ['4008', 'Columbia Power Cooperative Association'],
  'or-columbia-river-pud': ['40438', "Columbia River People's Utility District"],
  'or-columbia-rural-electric-association': ['4041', 'Columbia Rural Electric Association (Dayton WA), which EIA lists in OR and WA'],
  'or-emerald-people-s-utility-district': ['40437', "Emerald People's Utility District"],
  'or-eweb': ['6022', "Eugene Water & Electric Board, the City of Eugene's utility"],
  'or-mc-minnville-water-and-light': ['12187', 'municipal utility of McMinnville'],
  'or-northern-wasco-county-pud': ['13788', 'Northern Wasco County PUD'],
  'or-oregon-trail-electric-cooperative': ['14109', 'Oregon Trail Electric Consumers Cooperative'],
  'or-pacific-power': ['14354', 'Pacific Power is the PacifiCorp brand in CA, OR, WA; PacifiCorp is one EIA utility'],
  'or-springfield-utility-board': ['17839', "Springfield Utility Board, the City of Springfield's utility"],
  'or-tillamook-people-s-utility-district': ['18917', "Tillamook People's Utility District"],
  'or-umatilla-electric-cooperative-association': ['19325', 'Umatilla Electric Cooperative Association'],
  'pa-met-ed': ['12390', 'Met-Ed is Metropolitan Edison Co (FirstEnergy)'],
  'pa-peco': ['14940', 'PECO Energy Co'],
  'pa-penelec': ['14711', 'Penelec is Pennsylvania Electric Co (FirstEnergy)'],
  'pa-penn-power': ['14716', 'Penn Power is Pennsylvania Power Co (FirstEnergy)'],
  'ri-pascoag-utility-district': ['14537', 'Pascoag Utility District renamed Clear River Electric & Water District'],
  'ri-rhode-island-energy': ['13214', 'Rhode Island Energy is The Narragansett Electric Co (renamed 2022)'],
  'sc-city-of-clinton': ['3804', "Clinton Combined Utility System, the City of Clinton's utility"],
  'sc-duke-energy-progress': ['3046', 'Duke Energy Progress is one EIA utility for NC and SC'],
  'sc-greer-cpw': ['7654', 'Greer Commission of Public Works'],
  'sc-south-carolina-electric-and-gas-company': ['17539', 'SCE&G was renamed Dominion Energy South Carolina'],
  'sd-black-hills-power': ['19545', 'Black Hills Power, Inc'],
  'sd-north-western-corp': ['13809', "NorthWestern Corp's South Dakota utility, NorthWestern Energy - (SD)"],
  'sd-xcel-energy': ['13781', 'Xcel Energy serves SD through Northern States Power Co - Minnesota'],
  'tx-center-point-energy-houston-electric-llc': [
    '8901',
    'EIA 8901 is CenterPoint Energy Houston Electric (EIA-861 2018 territory: Harris, Fort Bend, Galveston, Brazoria, Montgomery and 7 other counties)',
  ],
  'tx-city-of-san-antonio': ['16604', "CPS Energy, the City of San Antonio's utility"],
  'tx-southwestern-electric-cooperative': ['17715', 'Southwestern Electric Cooperative of Clayton NM, which EIA lists in CO, NM, OK, TX'],
  'tx-tri-county-electric-cooperative': [
    '19159',
    "Tri-County Electric Cooperative of Azle TX (111,548 customers); the other Tri-County Electric Coop (19160, Hooker OK) has 9 of the slug's ZIPs against 22",
  ],
  'tx-united-electric-cooperative-service': ['19490', 'United Electric Cooperative Services (United Cooperative Services)'],
  'tx-weatherford-utility-department': ['20230', 'Weatherford Municipal Utility System'],
  'tx-xcel-energy': ['17718', "Xcel Energy's Texas operating company is Southwestern Public Service Co"],
  'ut-dixie-power': ['40165', 'DixiePower is the trade name of Dixie Escalante Rural Electric Association (AZ/UT)'],
  'ut-price-city-utilities': ['14198', 'Price Municipal Corporation, the City of Price utility'],
  'ut-rocky-mountain-power': ['14354', 'Rocky Mountain Power is the PacifiCorp brand in UT, WY, ID; PacifiCorp is one EIA utility'],
  'ut-south-utah-valley-electric-service-district': [
    '18206',
    'Strawberry Electric Service District renamed South Utah Valley Electric Service District',
  ],
  'va-bvu-authority': ['2248', 'BVU Authority, formerly Bristol Virginia Utilities'],
  'va-danville-utilities': ['4794', 'municipal utility of Danville'],
  'va-dominion-energy': ['19876', 'Dominion Energy Virginia is Virginia Electric & Power Co'],
  'va-franklin-municipal-power-and-light': ['6715', 'municipal utility of Franklin'],
  'va-novec': ['13640', 'NOVEC is Northern Virginia Electric Cooperative'],
  'va-radford-electric-department': ['15619', 'municipal utility of Radford'],
  'vt-burlington-electric-department': ['2548', 'Burlington Electric Department, City of Burlington'],
  'vt-lyndon-electric-department': ['11359', "Lyndon Electric Department, the Village of Lyndonville's utility"],
  'vt-morrisville-water-and-light': ['12989', 'municipal utility of Morrisville'],
  'vt-stowe-electric-department': ['27316', 'municipal utility of Stowe'],
  'vt-swanton-electric': ['18371', 'municipal utility of Swanton'],
  'vt-town-of-hardwick-electric-department': ['8104', 'municipal utility of Hardwick'],
  'vt-town-of-northfield-electric-department': ['13789', 'municipal utility of Northfield'],
  'vt-village-of-ludlow-electric-light-department': ['11305', 'municipal utility of Ludlow'],
  'wa-avista-utilities': ['20169', 'Avista Utilities is Avista Corp'],
  'wa-clark-public-utilities': ['3660', 'Clark Public Utilities is PUD No 1 of Clark County'],
  'wa-cowlitz-public-utility-district': ['4442', 'PUD No 1 of Cowlitz County'],
  'wa-pacific-power': ['14354', 'Pacific Power is the PacifiCorp brand in CA, OR, WA; PacifiCorp is one EIA utility'],
  'wa-seattle-city-light': ['16868', "Seattle City Light, the City of Seattle's utility"],
  'wa-snohomish-pud': ['17470', 'PUD No 1 of Snohomish County'],
  'wa-tacoma-public-utilities': ['18429', "Tacoma Public Utilities (Tacoma Power), the City of Tacoma's utility"],
  'wa-vera-water-and-power': ['19784', 'Vera Water and Power is Vera Irrigation District #15'],
  'wi-algoma-utilities': ['307', 'municipal utility; EIA names its commission'],
  'wi-bangor-municipal-utility': ['1181', 'municipal utility of Bangor'],
  'wi-black-river-falls-municipal-utilities': ['1776', 'municipal utility of Black River Falls'],
  'wi-boscobel-utilities': ['1997', 'municipal utility of Boscobel'],
  'wi-brodhead-water-and-light': ['2273', 'municipal utility; EIA names its commission'],
  'wi-cedarburg-light-and-water': ['3208', 'municipal utility; EIA names its commission'],
  'wi-city-utilities-richland-center': ['15978', 'municipal utility of Richland Center'],
  'wi-clintonville-utilities': ['3814', 'municipal utility of Clintonville'],
  'wi-columbus-utilties': ['4073', "Columbus (WI) Utilities, the City of Columbus's utility"],
  'wi-cuba-city-light-and-water': ['4607', 'municipal utility of Cuba City'],
  'wi-dunn-energy-cooperative': ['5417', 'Dunn County Electric Cooperative renamed Dunn Energy Cooperative'],
  'wi-eau-claire-energy-cooperative': ['5632', 'Eau Claire Electric Cooperative renamed Eau Claire Energy Cooperative'],
  'wi-elkhorn-light-and-water': ['5777', 'municipal utility of Elkhorn'],
  'wi-evansville-water-and-light': ['6043', 'municipal utility of Evansville'],
  'wi-florence-utilities': ['6424', 'municipal utility; EIA names its commission'],
  'wi-hartford-utilities': ['8212', 'Hartford (WI) municipal electric utility, EIA "Hartford Electric"'],
  'wi-juneau-utilities': ['9936', 'municipal utility; EIA names its commission'],
  'wi-kaukauna-utilities': ['10056', 'municipal utility of Kaukauna'],
  'wi-lodi-utilities': ['11125', 'municipal utility of Lodi'],
  'wi-marshfield-utilities': ['11740', 'municipal utility of Marshfield'],
  'wi-medford-electric-utility': ['12265', 'municipal utility of Medford'],
  'wi-menasha-utilities': ['12298', 'municipal utility of Menasha'],
  'wi-mount-horeb-utilities': ['13036', 'municipal utility of Mt. Horeb'],
  'wi-muscoda-utilities': ['13145', 'municipal utility of Muscoda'],
  'wi-new-glarus-utilities': ['13438', 'municipal utility of New Glarus'],
  'wi-new-holstein-utilities': ['13448', 'municipal utility of New Holstein'],
  'wi-new-london-utilities': ['13467', 'New London Electric & Water Utility'],
  'wi-new-richmond-utilities': ['13481', 'municipal utility of New Richmond'],
  'wi-oconto-falls-municipal-utilities': ['13965', 'municipal utility; EIA names its commission'],
  'wi-plymouth-utilities': ['15159', 'municipal utility of Plymouth'],
  'wi-river-falls-municipal-utilities': ['16082', 'municipal utility of River Falls'],
  'wi-sheboygan-falls-utilities': ['17028', 'municipal utility of Sheboygan Falls'],
  'wi-stoughton-utilities': ['18181', 'municipal utility of Stoughton'],
  'wi-sturgeon-bay-utilities': ['18249', 'municipal utility of Sturgeon Bay'],
  'wi-superior-water-light-and-power': ['18336', 'Superior Water, Light & Power Co (EIA "Superior Water and Light Co")'],
  'wi-two-rivers-utilities': ['19324', 'municipal utility; EIA spells it differently'],
  'wi-waterloo-utilities': ['20182', 'municipal utility; EIA names its commission'],
  'wi-waunakee-utilities': ['20211', 'municipal utility of Waunakee'],
  'wi-we-energies': ['20847', 'We Energies is Wisconsin Electric Power Co'],
  'wi-westby-utilities': ['20434', 'municipal utility of Westby'],
  'wi-westfield-milling-and-electric-light-company': [
    '40036',
    'Westfield Milling & Electric Light Co of Westfield WI, EIA "Westfield Electric Company"',
  ],
  'wi-xcel-energy': ['13780', "Xcel Energy's Wisconsin operating company is Northern States Power Co (Wisconsin)"],
  'wy-black-hills-energy': ['3461', "Black Hills Energy's Cheyenne company is Cheyenne Light, Fuel & Power d/b/a Black Hills Energy"],
  'wy-black-hills-power': ['19545', 'Black Hills Power, Inc'],
  'wy-north-western-energy-llc': ['12825', 'NorthWestern Energy LLC, which EIA lists in MT and WY'],
  'wy-rocky-mountain-power': ['14354', 'Rocky Mountain Power is the PacifiCorp brand in UT, WY, ID; PacifiCorp is one EIA utility'],
};

/** Electric, but no EIA-861 2018 utility serving the slug's state: slug -> what was looked for. */
const NONE: Record<string, string> = {
  'ak-chignik-electric':
    "looked for Chignik: EIA has only City of Chignik (3421, Chignik Bay); the slug's only ZIP is Chignik Lake (99548), a separate village: not matched",
  'ak-gustavus-electric': 'looked for Gustavus Electric Co (Gustavus AK): no EIA-861 2018 entry',
  'ak-yakutat-power': 'looked for Yakutat Power Inc: no EIA-861 2018 entry',
  'ga-south-carolina-electric-and-gas': 'SCE&G (Dominion Energy South Carolina, 17539) serves only SC in EIA-861 2018; 1 GA ZIP (31421)',
  'mn-city-of-dundee': 'looked for Dundee MN: no EIA-861 2018 entry',
  'mn-iowa-lakes-electric-coop': 'Iowa Lakes Electric Coop (9425) is listed by EIA-861 2018 in IA only (counties all in IA)',
  'nc-con-edison': 'Consolidated Edison serves only NY; 1 NC ZIP (28513), likely a data error',
  'nd-red-river-valley-cooperative-power-association':
    'Red River Valley Coop Power Assn (26939) is listed by EIA-861 2018 in MN only (Clay, Norman, Polk counties)',
  'ne-seward-county-rural-public-power-district':
    'looked for Seward County Rural PPD: no EIA-861 2018 entry (only the City of Seward); NREL gives its ZIPs to Norris, Butler, Perennial PPDs',
  'nm-la-plata-electric-association': 'La Plata Electric Association (10539) is listed by EIA-861 2018 in CO only; 1 NM ZIP (87418)',
  'nv-idaho-power': 'Idaho Power (9191) is listed by EIA-861 2018 in ID and OR only; 1 NV ZIP (89832)',
  'oh-tri-county-rural-electric-cooperative':
    'looked for a Tri-County Rural Electric Cooperative in OH: none in EIA-861 2018 (the EIA ones are MI, PA, TX, OK and others); 1 ZIP (43523)',
  'or-umpqua-indian-utility-cooperative': 'looked for Umpqua Indian Utility Cooperative (Cow Creek Band): no EIA-861 2018 entry',
  'pa-vicinity-energy': 'district steam in Philadelphia, not an electric distribution utility',
  'tx-choctaw-electric-cooperative': 'Choctaw Electric Coop (3527) is listed by EIA-861 2018 in OK only; 1 TX ZIP (75411)',
  'tx-cotton-electric-cooperative': 'Cotton Electric Coop (4401) is listed by EIA-861 2018 in OK only; 1 TX ZIP (76357)',
  'wa-cen-trio-seattle-formerly-enwave-seattle': 'district steam in downtown Seattle, not an electric distribution utility',
};

const isGasSlug = (slug: string) => {
  const words = slug.split('-');
  return words.includes('gas') && !words.includes('electric') && !words.includes('light');
};

export interface MatchRow {
  slug: string;
  eiaId: string;
  how: 'name' | 'reviewed' | 'gas' | 'none';
  note: string;
}

const servesState = (u: UtilityRecord, state: string) => u.state === state || u.statesServed.includes(state);

export function matchUtilities(dir = REFERENCE_DIR): MatchRow[] {
  const authorities = JSON.parse(fs.readFileSync(path.join(dir, AUTHORITIES_FILE), 'utf8')) as Record<string, Authority>;
  const { utilities, zipPairs } = loadUtilityReference(dir);
  const nrelZips = new Map<string, Set<string>>();
  for (const p of zipPairs) nrelZips.set(p.utilityId, (nrelZips.get(p.utilityId) ?? new Set<string>()).add(p.zipCode));
  const slugZips = new Map<string, Set<string>>();
  for (const r of readCsv(dir, ZIP_FILE)) slugZips.set(r.utility_id, (slugZips.get(r.utility_id) ?? new Set<string>()).add(r.zip));

  const byKey = new Map<string, UtilityRecord[]>();
  for (const u of utilities.values()) {
    for (const state of new Set([u.state ?? '', ...u.statesServed])) {
      if (!state) continue;
      const key = `${state}|${normaliseName(u.name, state)}`;
      byKey.set(key, [...(byKey.get(key) ?? []), u]);
    }
  }
  const zipNote = (slug: string, eiaId: string) => {
    const mine = slugZips.get(slug) ?? new Set<string>();
    const theirs = nrelZips.get(eiaId) ?? new Set<string>();
    return `NREL ZIPs: ${[...mine].filter((z) => theirs.has(z)).length}/${mine.size}/${theirs.size}`;
  };

  const rows: MatchRow[] = [];
  const unresolved: string[] = [];
  for (const [slug, a] of Object.entries(authorities).sort(([x], [y]) => x.localeCompare(y))) {
    const reviewed = REVIEWED[slug];
    if (reviewed) {
      // Several ids: a holding company's utilities, resolved per ZIP code by county (energystar.ts).
      const [ids, why] = reviewed;
      for (const eia of ids.split(' ')) {
        const u = utilities.get(eia);
        if (!u || !servesState(u, a.state)) throw new Error(`${slug}: EIA ${eia} is unknown or does not serve ${a.state}`);
      }
      const u = utilities.get(ids.split(' ')[0])!;
      rows.push({ slug, eiaId: ids, how: 'reviewed', note: `${u.name}: ${why}; ${zipNote(slug, u.id)}` });
    } else if (GAS[slug] !== undefined || isGasSlug(slug)) {
      rows.push({ slug, eiaId: '', how: 'gas', note: GAS[slug] ?? 'gas utility (slug)' });
    } else if (NONE[slug] !== undefined) {
      rows.push({ slug, eiaId: '', how: 'none', note: NONE[slug] });
    } else {
      const candidates = byKey.get(`${a.state}|${normaliseName(a.name, a.state)}`) ?? [];
      if (candidates.length === 1)
        rows.push({ slug, eiaId: candidates[0].id, how: 'name', note: `${candidates[0].name}; ${zipNote(slug, candidates[0].id)}` });
      else unresolved.push(`${slug} (${a.name}, ${a.state}): ${candidates.length} EIA utilities of that name`);
    }
  }
  if (unresolved.length) throw new Error(`${unresolved.length} slugs need review:\n${unresolved.join('\n')}`);
  return rows;
}

const csvField = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function main() {
  const rows = matchUtilities();
  const lines = ['slug,eia_id,how,note', ...rows.map((r) => [r.slug, r.eiaId, r.how, r.note].map(csvField).join(','))];
  fs.writeFileSync(path.join(REFERENCE_DIR, MATCH_FILE), lines.join('\n') + '\n');
  const count = (how: MatchRow['how']) => rows.filter((r) => r.how === how).length;
  console.log(`${rows.length} slugs: name ${count('name')}, reviewed ${count('reviewed')}, gas ${count('gas')}, none ${count('none')}`);
}

if (require.main === module) main();
