import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser, setTier } from '../helpers/users';
import { as, createProperty } from '../pm/helpers';
import { importReferenceData } from '../../src/modules/tariffs/importer';
import { allYear } from '../fixtures/rates-tariff';

/** The tests' clock: a new user in March 2026 with the last year's bills in hand. */
const NOW = new Date('2026-03-20T12:00:00Z');

/** Real catalog tariffs of metros no other audit test names. */
const TARIFFS = {
  /** Kansas City Power & Light (MO), "Medium General Service-MGS (0-199 KW) Secondary": hours-use blocks, seasonal demand. */
  kcpl: '5d163ee65457a35716de8452',
  /** Anchorage Municipal Light and Power, "General Service: Large at Secondary Voltage": one energy price, $44.53/kW. */
  mlp: '5b7c55c15457a396290a2ad5',
  /** Tucson Electric Power, "Medium General Service TGMGS": seasonal energy and demand (expired 2020-12-31). */
  tep: '5c78125d5457a31073f3afb0',
  /** PECO Energy, "General Service Polyphase Service (GSA) Delivery": delivery only, supply bought from a supplier. */
  peco: '5ba9253f5457a3832cc4a514',
};

// ---------------------------------------------------------------------------------------------------------------
// The bill by hand, from the rates GET /tariffs/{id} publishes and the written rule of pricing README "Billing
// periods": the period is cut at month boundaries; each piece is the whole period's bill on that month's rates (a
// monthly charge and a usage block x the months the period bills: 25 to 35 days is 1, 56 to 66 is 2, 86 to 96 is
// 3); each line is rounded to the cent, then x its piece's days / the period's days, and a line the pieces share
// (the same charge at the same price) is rounded once over the period. Nothing here calls the service under test.
// ---------------------------------------------------------------------------------------------------------------

type EnergyRow = {
  period: string;
  months: number[];
  tier: number | null;
  rate_per_kwh?: number;
  rate_per_unit?: number;
  tier_max_kwh?: number | null;
  tier_max?: number | null;
  tier_max_unit?: string | null;
};
type DemandRow = { period: string; months: number[]; type: string; rate_per_kw: number; tier_max_kw: number | null };
type Rider = { name: string; rate_per_unit?: number | null; rate_per_kwh?: number | null; months?: number[] | null };
type Rates = {
  energy_rates: EnergyRow[];
  demand_rates: DemandRow[];
  fixed_charges: Array<{ name: string; amount: number; frequency: string }>;
  riders: Rider[];
};

const RATE_PLACES = 10n ** 10n;
/** A published price as an exact integer of 10^-10 dollars (the rates have at most 7 decimals). */
const exact = (price: number): bigint => {
  const [whole, fraction = ''] = Math.abs(price).toString().split('.');
  if (fraction.length > 10 || /e/.test(price.toString())) throw new Error(`unexpected price ${price}`);
  const v = BigInt(whole!) * RATE_PLACES + BigInt(fraction.padEnd(10, '0'));
  return price < 0 ? -v : v;
};
/** n / d rounded half away from zero. */
const roundDiv = (n: bigint, d: bigint): bigint => {
  const q = n / d;
  const r = n % d;
  return 2n * (r < 0n ? -r : r) >= d ? q + (n < 0n ? -1n : 1n) : q;
};
/** Thousandths of a quantity (kWh to Wh, kW to W). */
const milli = (q: number) => BigInt(Math.round(q * 1000));
/** Cents of a quantity (in thousandths) at a price. */
const lineCents = (qMilli: bigint, price: number) => roundDiv(qMilli * exact(price), (1000n * RATE_PLACES) / 100n);

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const daysOf = (start: string, end: string) => dayOf(end) - dayOf(start) + 1;
/** The period's days in each calendar month: [month 1-12, days]. */
function monthPieces(start: string, end: string): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  for (let d = dayOf(start); d <= dayOf(end); d++) {
    const month = new Date(d * DAY_MS).getUTCMonth() + 1;
    const last = pieces.at(-1);
    if (last && last[0] === month) last[1] += 1;
    else pieces.push([month, 1]);
  }
  return pieces;
}
/** The months a read bills: within 5 days of 1, 2 or 3 average months (30, 61, 91 days). */
function monthsBilled(days: number): bigint {
  for (const [months, around] of [
    [1, 30],
    [2, 61],
    [3, 91],
  ] as const)
    if (Math.abs(days - around) <= 5) return BigInt(months);
  throw new Error(`these bills are monthly, bi-monthly or quarterly reads, not ${days} days`);
}

interface Read {
  start: string;
  end: string;
  usage: number;
  kw?: number;
}

/** One month's lines (key -> cents) of the whole period's usage on `rates` in `month`. */
function monthLines(rates: Rates, month: number, read: Read, months: bigint, prefix: string): Map<string, bigint> {
  const lines = new Map<string, bigint>();
  const energy = rates.energy_rates.filter((r) => r.months.includes(month)).sort((a, b) => (a.tier ?? 1) - (b.tier ?? 1));
  if (new Set(energy.map((r) => r.period)).size !== 1) throw new Error('one energy period a month (no time of use) in these tariffs');
  let filled = 0n;
  const usage = milli(read.usage);
  for (const row of energy) {
    const max = row.tier_max_kwh ?? row.tier_max ?? null;
    // A bound per kW of billing demand ("hours use") is that many kWh per kW of the bill's demand; a bound x the months.
    const bound = max === null ? null : (milli(max) * (row.tier_max_unit === 'kWh/kW' ? milli(read.kw!) : 1000n) * months) / 1000n;
    const upTo = bound === null || bound > usage ? usage : bound;
    if (upTo > filled)
      lines.set(`${prefix}energy|${row.period}|${row.tier}`, lineCents(upTo - filled, row.rate_per_kwh ?? row.rate_per_unit!));
    if (upTo > filled) filled = upTo;
  }
  for (const row of rates.demand_rates.filter((r) => r.months.includes(month))) {
    if (row.type !== 'facility' || row.tier_max_kw !== null) throw new Error('one facility demand price a month in these tariffs');
    lines.set(`${prefix}demand|${row.period}`, lineCents(milli(read.kw!) * months, row.rate_per_kw));
  }
  for (const rider of rates.riders.filter((r) => !r.months || r.months.includes(month))) {
    lines.set(`${prefix}rider|${rider.name}`, lineCents(usage, rider.rate_per_unit ?? rider.rate_per_kwh!));
  }
  for (const fixed of rates.fixed_charges) {
    if (fixed.frequency !== 'monthly') throw new Error('monthly fixed charges in these tariffs');
    lines.set(`${prefix}fixed|${fixed.name}`, (exact(fixed.amount) * months) / (RATE_PLACES / 100n));
  }
  return lines;
}

/** The tariff's bill for the read, in cents (with the supply contract's bill beside a delivery tariff's). */
function billCents(rates: Rates, read: Read, supply?: Rates): number {
  const days = BigInt(daysOf(read.start, read.end));
  const months = monthsBilled(Number(days));
  // Per line: the sum over the pieces of its cents x the piece's days, over the period's days, rounded once.
  const quotas = new Map<string, bigint>();
  for (const [month, pieceDays] of monthPieces(read.start, read.end)) {
    const lines = [...monthLines(rates, month, read, months, ''), ...(supply ? monthLines(supply, month, read, months, 'supply ') : [])];
    for (const [key, cents] of lines) quotas.set(key, (quotas.get(key) ?? 0n) + cents * BigInt(pieceDays));
  }
  let total = 0n;
  for (const quota of quotas.values()) total += roundDiv(quota, days);
  return Number(total);
}
const dollars = (cents: number) => cents / 100;

// ---------------------------------------------------------------------------------------------------------------
// A year of reads per meter: meter-reading cycles of 29 to 33 days, back to back.
// ---------------------------------------------------------------------------------------------------------------

/** Kansas City office: 136-176 kW; one bi-monthly read (November 14 to January 13, 61 days: the reader missed December). */
const KANSAS_CITY: Read[] = [
  { start: '2025-01-14', end: '2025-02-12', usage: 41_800, kw: 142 },
  { start: '2025-02-13', end: '2025-03-14', usage: 39_600, kw: 138 },
  { start: '2025-03-15', end: '2025-04-14', usage: 38_900, kw: 136 },
  { start: '2025-04-15', end: '2025-05-14', usage: 42_300, kw: 151 },
  // 17 days of May on winter rates, 13 of June on summer ones.
  { start: '2025-05-15', end: '2025-06-13', usage: 49_700, kw: 168 },
  // 64,800 kWh on 176 kW: 368 kWh per kW, some in the third block.
  { start: '2025-06-14', end: '2025-07-15', usage: 64_800, kw: 176 },
  { start: '2025-07-16', end: '2025-08-13', usage: 60_400, kw: 174 },
  { start: '2025-08-14', end: '2025-09-15', usage: 63_100, kw: 172 },
  { start: '2025-09-16', end: '2025-10-14', usage: 47_800, kw: 160 },
  { start: '2025-10-15', end: '2025-11-13', usage: 40_200, kw: 140 },
  { start: '2025-11-14', end: '2026-01-13', usage: 83_600, kw: 145 },
  { start: '2026-01-14', end: '2026-02-11', usage: 40_100, kw: 141 },
];

/** Anchorage office: winter-peaking, 90-115 kW. */
const ANCHORAGE: Read[] = [
  { start: '2025-01-03', end: '2025-02-03', usage: 46_200, kw: 112 },
  { start: '2025-02-04', end: '2025-03-04', usage: 42_900, kw: 108 },
  { start: '2025-03-05', end: '2025-04-03', usage: 40_100, kw: 104 },
  { start: '2025-04-04', end: '2025-05-05', usage: 36_800, kw: 97 },
  { start: '2025-05-06', end: '2025-06-03', usage: 33_200, kw: 92 },
  { start: '2025-06-04', end: '2025-07-03', usage: 32_600, kw: 90 },
  { start: '2025-07-04', end: '2025-08-04', usage: 34_100, kw: 93 },
  { start: '2025-08-05', end: '2025-09-03', usage: 33_900, kw: 91 },
  { start: '2025-09-04', end: '2025-10-03', usage: 36_500, kw: 96 },
  { start: '2025-10-04', end: '2025-11-04', usage: 41_700, kw: 104 },
  { start: '2025-11-05', end: '2025-12-03', usage: 43_800, kw: 109 },
  { start: '2025-12-04', end: '2026-01-05', usage: 48_900, kw: 115 },
];

/** Tucson apartments' house meter (common areas, pumps): summer-peaking, 66-110 kW. TEP's summer is May to September. */
const TUCSON_ELECTRIC: Read[] = [
  { start: '2025-01-08', end: '2025-02-06', usage: 24_300, kw: 68 },
  { start: '2025-02-07', end: '2025-03-09', usage: 22_800, kw: 66 },
  { start: '2025-03-10', end: '2025-04-08', usage: 25_600, kw: 74 },
  { start: '2025-04-09', end: '2025-05-08', usage: 30_400, kw: 86 },
  { start: '2025-05-09', end: '2025-06-09', usage: 38_700, kw: 99 },
  { start: '2025-06-10', end: '2025-07-09', usage: 45_900, kw: 108 },
  { start: '2025-07-10', end: '2025-08-07', usage: 46_800, kw: 110 },
  { start: '2025-08-08', end: '2025-09-08', usage: 44_100, kw: 106 },
  { start: '2025-09-09', end: '2025-10-08', usage: 36_200, kw: 95 },
  { start: '2025-10-09', end: '2025-11-06', usage: 27_400, kw: 79 },
  { start: '2025-11-07', end: '2025-12-08', usage: 24_900, kw: 70 },
  { start: '2025-12-09', end: '2026-01-08', usage: 25_800, kw: 71 },
];

/** Tucson apartments' central boiler: ccf as the meter reads it, and the bill's therm factor (therms per ccf). */
const TUCSON_GAS: Array<Read & { heat: number }> = [
  { start: '2025-01-10', end: '2025-02-09', usage: 1842, heat: 1.0412 },
  { start: '2025-02-10', end: '2025-03-11', usage: 1617, heat: 1.0398 },
  { start: '2025-03-12', end: '2025-04-10', usage: 1288, heat: 1.0405 },
  { start: '2025-04-11', end: '2025-05-12', usage: 1004, heat: 1.0421 },
  { start: '2025-05-13', end: '2025-06-11', usage: 812, heat: 1.0436 },
  { start: '2025-06-12', end: '2025-07-13', usage: 731, heat: 1.0447 },
  { start: '2025-07-14', end: '2025-08-11', usage: 702, heat: 1.0451 },
  { start: '2025-08-12', end: '2025-09-10', usage: 724, heat: 1.0443 },
  { start: '2025-09-11', end: '2025-10-12', usage: 866, heat: 1.0429 },
  { start: '2025-10-13', end: '2025-11-10', usage: 1151, heat: 1.0417 },
  { start: '2025-11-11', end: '2025-12-10', usage: 1496, heat: 1.0409 },
  { start: '2025-12-11', end: '2026-01-11', usage: 1893, heat: 1.0403 },
];

/** Tucson apartments' 2" water meter, ccf (read rounded down to whole ccf); one quarterly read over the summer (91 days). */
const TUCSON_WATER: Read[] = [
  { start: '2025-01-06', end: '2025-02-04', usage: 412 },
  { start: '2025-02-05', end: '2025-03-06', usage: 398 },
  { start: '2025-03-07', end: '2025-04-06', usage: 431 },
  { start: '2025-04-07', end: '2025-05-06', usage: 472 },
  { start: '2025-05-07', end: '2025-06-05', usage: 518 },
  { start: '2025-06-06', end: '2025-09-04', usage: 1642 },
  { start: '2025-09-05', end: '2025-10-06', usage: 506 },
  { start: '2025-10-07', end: '2025-11-05', usage: 455 },
  { start: '2025-11-06', end: '2025-12-07', usage: 421 },
  { start: '2025-12-08', end: '2026-01-07', usage: 409 },
];

/** Philadelphia office on PECO delivery and a supplier's fixed price: 66-97 kW (GSA is for up to 100 kW). */
const PHILADELPHIA: Read[] = [
  { start: '2025-01-16', end: '2025-02-14', usage: 21_400, kw: 71 },
  { start: '2025-02-15', end: '2025-03-17', usage: 20_100, kw: 68 },
  { start: '2025-03-18', end: '2025-04-15', usage: 19_300, kw: 66 },
  { start: '2025-04-16', end: '2025-05-15', usage: 21_800, kw: 74 },
  { start: '2025-05-16', end: '2025-06-16', usage: 26_900, kw: 88 },
  { start: '2025-06-17', end: '2025-07-16', usage: 30_500, kw: 95 },
  { start: '2025-07-17', end: '2025-08-14', usage: 31_200, kw: 97 },
  { start: '2025-08-15', end: '2025-09-15', usage: 29_800, kw: 94 },
  { start: '2025-09-16', end: '2025-10-15', usage: 24_100, kw: 83 },
  { start: '2025-10-16', end: '2025-11-13', usage: 20_600, kw: 72 },
  { start: '2025-11-14', end: '2025-12-15', usage: 21_900, kw: 73 },
  { start: '2025-12-16', end: '2026-01-15', usage: 22_700, kw: 75 },
];

type FindingRow = {
  id: string;
  bill_id: string;
  period_end: string;
  reason: string;
  severity: string;
  amount_at_issue: number | null;
  status: string;
  message: string;
  details: Record<string, unknown>;
};

/**
 * Issue 47, "Done when": tried again as a new user would, in metros no other audit test names (Kansas City,
 * Anchorage, Tucson, Philadelphia), on the bundled catalog's tariffs (and the user's own for gas, water and a
 * supply contract): a year of correct bills gets no high-severity finding, and each planted error exactly one
 * finding with the right dollars. Every expected amount is worked out here from the tariff's published rates.
 */
describe('bill audit tried again as a new user would (issue 47 new-user pass)', () => {
  let t: TestApp;
  let token: string;
  const rates = new Map<string, Rates>();
  let gasTariff: string;
  let waterTariff: string;
  let supplyTariff: string;

  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    await importReferenceData(t.deps.database.db, { now: NOW });
    const pro = await registerUser(t);
    await setTier(t, pro.user.id, 'pro');
    token = pro.token;
    // Own tariffs, typed in from the utilities' rate sheets and the supplier's contract.
    // Tucson Water, multi-family (one master meter for more than three units): $3.74 a ccf all year, the CAP and water
    // supply surcharge of $1.25 a ccf and the conservation fee of $0.10 a ccf, and $114.40 a month for a 2" meter
    // (tucsonaz.gov, "Your Residential Water Bill").
    waterTariff = (
      await as(t, token)
        .post('/tariffs/custom', {
          name: 'Multi-family water (2" meter)',
          utility_name: 'Tucson Water',
          state: 'AZ',
          sector: 'residential',
          utility_type: 'water',
          unit: 'ccf',
          effective_date: '2024-07-01',
          source_url: 'https://www.tucsonaz.gov/Departments/Water/Your-Water-Bill/residential-bill',
          energy_rates: [{ ...allYear, tier: 1, rate_per_unit: 3.74 }],
          riders: [
            { name: 'CAP and water supply surcharge', rate_per_unit: 1.25 },
            { name: 'Conservation fee', rate_per_unit: 0.1 },
          ],
          fixed_charges: [{ name: 'Monthly service charge (2" meter)', amount: 114.4, frequency: 'monthly' }],
        })
        .expect(201)
    ).body.id;
    // Southwest Gas's general gas service for a medium customer, per therm, as an owner types it in: delivery $0.5873 a
    // therm, the gas cost (purchased gas adjustor) $0.4821 a therm, and $71.00 a month (this test's figures, in the
    // schedule's form; not read from Southwest Gas's rate sheet).
    gasTariff = (
      await as(t, token)
        .post('/tariffs/custom', {
          name: 'G-25 General Gas Service (Medium)',
          utility_name: 'Southwest Gas Corporation',
          state: 'AZ',
          sector: 'commercial',
          utility_type: 'gas',
          unit: 'therms',
          effective_date: '2024-01-01',
          energy_rates: [{ ...allYear, tier: 1, rate_per_unit: 0.5873 }],
          riders: [{ name: 'Purchased gas adjustor', rate_per_unit: 0.4821 }],
          fixed_charges: [{ name: 'Basic service charge', amount: 71, frequency: 'monthly' }],
        })
        .expect(201)
    ).body.id;
    // A supplier's fixed price for the Philadelphia office, beside PECO's delivery: $0.0689 a kWh, no fixed charge (a contract
    // of this test's).
    supplyTariff = (
      await as(t, token)
        .post('/tariffs/custom', {
          name: 'Fixed-price electricity, 24 months',
          utility_name: 'Example Energy Supplier',
          state: 'PA',
          sector: 'commercial',
          utility_type: 'electric',
          unit: 'kWh',
          service_type: 'supply_only',
          effective_date: '2024-12-01',
          energy_rates: [{ ...allYear, tier: 1, rate_per_unit: 0.0689 }],
        })
        .expect(201)
    ).body.id;
    for (const id of [...Object.values(TARIFFS), gasTariff, waterTariff, supplyTariff]) {
      rates.set(id, (await as(t, token).get(`/tariffs/${id}`).expect(200)).body as Rates);
    }
  }, 300_000);
  afterAll(() => t.stop());

  const ratesOf = (id: string) => rates.get(id)!;
  const electricCents = (tariff: string, read: Read) => billCents(ratesOf(tariff), read);
  const phillyCents = (read: Read) => billCents(ratesOf(TARIFFS.peco), read, ratesOf(supplyTariff));
  /** A gas bill's therms: ccf x the bill's therm factor, to 0.001 therm. */
  const therms = (read: Read & { heat: number }) => Math.round(read.usage * read.heat * 1000) / 1000;
  const gasCents = (read: Read & { heat: number }) => billCents(ratesOf(gasTariff), { ...read, usage: therms(read) });
  const waterCents = (read: Read) => billCents(ratesOf(waterTariff), read);

  const property = async (name: string, where: { city: string; state: string; zip_code: string }, extra: Record<string, unknown> = {}) =>
    (await createProperty(t, token, { name, address: '1 Main St', property_type: 'commercial', ...where, ...extra })).id;
  const meter = async (propertyId: string, body: Record<string, unknown>) =>
    (await as(t, token).post(`/pm/properties/${propertyId}/meters`, body).expect(201)).body.id as string;
  /** Posts the reads as bills (each at `amountOf` it) and answers their ids. */
  async function postBills<R extends Read>(
    propertyId: string,
    meterId: string,
    reads: R[],
    amountOf: (read: R, i: number) => number,
    extra: (read: R, i: number) => Record<string, unknown> = () => ({}),
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, read] of reads.entries()) {
      const res = await as(t, token).post(`/pm/properties/${propertyId}/bills`, {
        meter_id: meterId,
        period_start: read.start,
        period_end: read.end,
        amount: dollars(amountOf(read, i)),
        usage: read.usage,
        ...(read.kw === undefined ? {} : { demand_kw: read.kw }),
        ...extra(read, i),
      });
      if (res.status !== 201) throw new Error(`bill ${read.start} failed: ${res.status} ${JSON.stringify(res.body)}`);
      ids.push(res.body.id);
    }
    return ids;
  }
  /** Audits the meter now (POST /pm/bills/{id}/audit), then answers each bill's stored audit (GET). */
  async function audits(billIds: string[]) {
    await as(t, token).post(`/pm/bills/${billIds[0]}/audit`).expect(200);
    const out = [];
    for (const id of billIds) out.push((await as(t, token).get(`/pm/bills/${id}/audit`).expect(200)).body);
    return out;
  }
  const findingsOf = async (meterId: string): Promise<FindingRow[]> =>
    (await as(t, token).get(`/pm/audit/findings?meter_id=${meterId}&per_page=100`).expect(200)).body.items;
  const brief = (f: FindingRow) => [f.period_end, f.reason, f.severity, f.amount_at_issue];

  it('prices one bill of each tariff by hand from its published rates', () => {
    // KCP&L MGS, February 13 to March 14 (30 days, winter): blocks of 180 and 360 kWh per kW of 138 kW, 24,840 and
    // 49,680 kWh: 24,840 x 0.09947 = 2,470.83; 14,760 x 0.06227 = 919.11; 138 kW x 5.222 = 720.64; 53.96: $4,164.54.
    expect(dollars(electricCents(TARIFFS.kcpl, KANSAS_CITY[1]!))).toBe(4164.54);
    // May 15 to June 13 (17 days of May, winter; 13 of June, summer), 49,700 kWh on 168 kW (blocks of 30,240 and 60,480 kWh):
    // winter 30,240 x 0.09947 = 3,007.97 and 19,460 x 0.06227 = 1,211.77, 168 x 5.222 = 877.30, each x 17/30:
    // 1,704.52 + 686.67 + 497.14; summer 30,240 x 0.11404 = 3,448.57 and 19,460 x 0.08016 = 1,559.91, 168 x 7.237 =
    // 1,215.82, each x 13/30: 1,494.38 + 675.96 + 526.86; the customer charge once, 53.96: $5,639.49.
    expect(dollars(electricCents(TARIFFS.kcpl, KANSAS_CITY[4]!))).toBe(5639.49);
    // November 14 to January 13 (61 days): two months, so blocks of 180 x 145 x 2 = 52,200 and 104,400 kWh, demand
    // and customer charge x 2: 52,200 x 0.09947 = 5,192.33; 31,400 x 0.06227 = 1,955.28; 145 x 5.222 x 2 = 1,514.38;
    // 53.96 x 2 = 107.92: $8,769.91.
    expect(dollars(electricCents(TARIFFS.kcpl, KANSAS_CITY[10]!))).toBe(8769.91);
    // ML&P: 46,200 x 0.0268176 = 1,238.97; 112 x 44.53 = 4,987.36; 92.61: $6,318.94.
    expect(dollars(electricCents(TARIFFS.mlp, ANCHORAGE[0]!))).toBe(6318.94);
    // TEP, April 9 to May 8 (22 days of April, winter; 8 of May, summer): 30,400 x 0.1201096 = 3,651.33 and 86 x 5.35
    // = 460.10, x 22/30: 2,677.64 + 337.41; 30,400 x 0.13721 = 4,171.18 and 86 x 6.75 = 580.50, x 8/30: 1,112.31 +
    // 154.80; 40.00: $4,322.16.
    expect(dollars(electricCents(TARIFFS.tep, TUCSON_ELECTRIC[3]!))).toBe(4322.16);
    // PECO GSA and the supply contract: 30,500 x 0.00227 = 69.24; 95 x 8.31 = 789.45; 43.53; supply 30,500 x 0.0689 =
    // 2,101.45: $3,003.67.
    expect(dollars(phillyCents(PHILADELPHIA[5]!))).toBe(3003.67);
    // Southwest Gas: 1,842 ccf x 1.0412 = 1,917.890 therms; x 0.5873 = 1,126.38; x 0.4821 = 924.61; 71.00: $2,121.99.
    expect(dollars(gasCents(TUCSON_GAS[0]!))).toBe(2121.99);
    // Tucson Water, the quarter June 6 to September 4 (91 days: 3 months): 1,642 x 3.74 = 6,141.08; x 1.25 = 2,052.50;
    // x 0.10 = 164.20; 114.40 x 3 = 343.20: $8,700.98.
    expect(dollars(waterCents(TUCSON_WATER[5]!))).toBe(8700.98);
  });

  const KANSAS_CITY_MO = { city: 'Kansas City', state: 'MO', zip_code: '64105' };
  const ANCHORAGE_AK = { city: 'Anchorage', state: 'AK', zip_code: '99501' };
  const TUCSON_AZ = { city: 'Tucson', state: 'AZ', zip_code: '85701' };
  const PHILADELPHIA_PA = { city: 'Philadelphia', state: 'PA', zip_code: '19103' };
  const APARTMENTS = { property_type: 'residential', unit_count: 48 };
  let kcProperty: string;
  let kcMeter: string;
  let kcBills: string[];

  it('a year of correct bills in four metros: every bill ok at its hand-computed amount, and no high-severity finding', async () => {
    kcProperty = await property('Kansas City office', KANSAS_CITY_MO);
    kcMeter = await meter(kcProperty, { utility_type: 'electric', tariff_id: TARIFFS.kcpl });
    kcBills = await postBills(kcProperty, kcMeter, KANSAS_CITY, (r) => electricCents(TARIFFS.kcpl, r));

    const anchorage = await property('Anchorage office', ANCHORAGE_AK);
    const mlpMeter = await meter(anchorage, { utility_type: 'electric', tariff_id: TARIFFS.mlp });
    const mlpBills = await postBills(anchorage, mlpMeter, ANCHORAGE, (r) => electricCents(TARIFFS.mlp, r));

    const tucson = await property('Tucson apartments', TUCSON_AZ, APARTMENTS);
    const tepMeter = await meter(tucson, { utility_type: 'electric', name: 'House meter', tariff_id: TARIFFS.tep });
    const tepBills = await postBills(tucson, tepMeter, TUCSON_ELECTRIC, (r) => electricCents(TARIFFS.tep, r));
    const gasMeter = await meter(tucson, { utility_type: 'gas', unit: 'ccf', name: 'Boiler', tariff_id: gasTariff });
    const gasBills = await postBills(tucson, gasMeter, TUCSON_GAS, gasCents, (r) => ({ unit: 'ccf', heat_content: r.heat }));
    const waterMeter = await meter(tucson, { utility_type: 'water', unit: 'ccf', name: '2" master meter', tariff_id: waterTariff });
    const waterBills = await postBills(tucson, waterMeter, TUCSON_WATER, waterCents);

    const philadelphia = await property('Philadelphia office', PHILADELPHIA_PA);
    const pecoMeter = await meter(philadelphia, { utility_type: 'electric', tariff_id: TARIFFS.peco, supply_tariff_id: supplyTariff });
    const pecoBills = await postBills(philadelphia, pecoMeter, PHILADELPHIA, phillyCents);

    const sets: Array<{ meterId: string; ids: string[]; reads: Read[]; amounts: number[] }> = [
      { meterId: kcMeter, ids: kcBills, reads: KANSAS_CITY, amounts: KANSAS_CITY.map((r) => electricCents(TARIFFS.kcpl, r)) },
      { meterId: mlpMeter, ids: mlpBills, reads: ANCHORAGE, amounts: ANCHORAGE.map((r) => electricCents(TARIFFS.mlp, r)) },
      { meterId: tepMeter, ids: tepBills, reads: TUCSON_ELECTRIC, amounts: TUCSON_ELECTRIC.map((r) => electricCents(TARIFFS.tep, r)) },
      { meterId: gasMeter, ids: gasBills, reads: TUCSON_GAS, amounts: TUCSON_GAS.map(gasCents) },
      { meterId: waterMeter, ids: waterBills, reads: TUCSON_WATER, amounts: TUCSON_WATER.map(waterCents) },
      { meterId: pecoMeter, ids: pecoBills, reads: PHILADELPHIA, amounts: PHILADELPHIA.map(phillyCents) },
    ];
    for (const { ids, reads, amounts } of sets) {
      const got = await audits(ids);
      // Each bill as [its start, status, expected, variance]: every one ok, expected exactly what was billed.
      expect(got.map((a, i) => [reads[i]!.start, a.status, a.expected_amount, a.variance])).toEqual(
        reads.map((r, i) => [r.start, 'ok', dollars(amounts[i]!), 0]),
      );
    }
    const all: FindingRow[] = [];
    for (const { meterId } of sets) all.push(...(await findingsOf(meterId)));
    expect(all.filter((f) => f.severity === 'high').map((f) => f.message)).toEqual([]);
    // What the correct bills do get, each once and of medium severity: Kansas City's bi-monthly read and the quarterly water
    // read on meters read monthly; TEP's TGMGS rates expired on 2020-12-31, before every 2025 bill, one finding for the meter.
    expect(all.map(brief)).toEqual([
      ['2026-01-13', 'period_length', 'medium', null],
      ['2025-02-06', 'expired_tariff', 'medium', null],
      ['2025-09-04', 'period_length', 'medium', null],
    ]);
    expect(all.find((f) => f.reason === 'expired_tariff')!.details).toMatchObject({ bill_count: 12 });
  });

  it('a bill overlapping another of its meter is refused with a 409 naming that bill, and the audit is unchanged', async () => {
    const findingsBefore = (await findingsOf(kcMeter)).map(brief);
    // The same period again (a reprint), and a period overlapping part of February 13 to March 14.
    for (const [start, end] of [
      ['2025-02-13', '2025-03-14'],
      ['2025-02-20', '2025-03-14'],
    ]) {
      const res = await as(t, token).post(`/pm/properties/${kcProperty}/bills`, {
        meter_id: kcMeter,
        period_start: start,
        period_end: end,
        amount: 4164.54,
        usage: 39_600,
        demand_kw: 138,
      });
      expect([res.status, res.body.detail]).toEqual([
        409,
        `This meter already has a bill overlapping this period: ${kcBills[1]} (2025-02-13 to 2025-03-14)`,
      ]);
    }
    await as(t, token).post(`/pm/bills/${kcBills[1]}/audit`).expect(200);
    expect((await findingsOf(kcMeter)).map(brief)).toEqual(findingsBefore);
  });

  it('an overcharge of $400.00: one price_variance of $400.00; credited on a later bill that lacks the credit: one price_variance of $400.00 there', async () => {
    const copy = await property('Tucson apartments (overcharged)', TUCSON_AZ, APARTMENTS);
    const tep = await meter(copy, { utility_type: 'electric', name: 'House meter', tariff_id: TARIFFS.tep });
    // June 10 to July 9 billed $400.00 over the tariff's $7,066.94 (45,900 x 0.13721 = 6,297.94; 108 x 6.75 = 729.00; 40.00).
    expect(dollars(electricCents(TARIFFS.tep, TUCSON_ELECTRIC[5]!))).toBe(7066.94);
    const ids = await postBills(copy, tep, TUCSON_ELECTRIC, (r, i) => electricCents(TARIFFS.tep, r) + (i === 5 ? 40_000 : 0));
    await audits(ids);
    const found = await findingsOf(tep);
    // 400 / 7,066.94 = +5.7 %: outside the 3 % tolerance, under 10 % and $500: medium.
    expect(found.map(brief)).toEqual([
      ['2025-07-09', 'price_variance', 'medium', 400],
      ['2025-02-06', 'expired_tariff', 'medium', null],
    ]);
    expect(found[0]!.message).toMatch(/^billed \$7466\.94, expected \$7066\.94 on Medium General Service TGMGS: \+\$400\.00 \(\+5\.7 %\)/);

    // Claimed on July 25; the utility answers on August 12 that it credited $400.00 on the next bill (July 10 to August 7),
    // but that bill is the tariff's $7,203.93 (46,800 x 0.13721 = 6,421.43; 110 x 6.75 = 742.50; 40.00) without it.
    await as(t, token)
      .post(`/pm/audit/findings/${found[0]!.id}/dispute`, {
        disputed_on: '2025-07-25',
        claim_reference: 'TEP-0725-118',
        amount_claimed: 400,
      })
      .expect(200);
    await as(t, token)
      .post(`/pm/audit/findings/${found[0]!.id}/credit`, { amount_credited: 400, credit_bill_id: ids[6], closed_on: '2025-08-12' })
      .expect(200);
    expect(dollars(electricCents(TARIFFS.tep, TUCSON_ELECTRIC[6]!))).toBe(7203.93);
    const [august] = await audits([ids[6]!]);
    // Expected 7,203.93 - 400.00 = $6,803.93; billed $7,203.93: +$400.00 (+5.9 %).
    expect(august).toMatchObject({
      status: 'variance',
      billed_amount: 7203.93,
      expected_amount: 6803.93,
      variance: 400,
      variance_percent: 5.9,
    });
    expect(august.findings.find((f: FindingRow) => f.reason === 'price_variance').message).toBe(
      'billed $7203.93, expected $6803.93 on ' +
        'Medium General Service TGMGS with the credit on dispute TEP-0725-118 (-$400.00): +$400.00 (+5.9 %); the credit is not on the bill',
    );
    expect((await findingsOf(tep)).map((f) => [...brief(f), f.status])).toEqual([
      ['2025-08-07', 'price_variance', 'medium', 400, 'open'],
      ['2025-07-09', 'price_variance', 'medium', 400, 'credited'],
      ['2025-02-06', 'expired_tariff', 'medium', null, 'open'],
    ]);
  });

  it('MWh typed as kWh: one likely_unit_error naming 1,000, no dollars at issue, and no price finding', async () => {
    const copy = await property('Anchorage office (typed in MWh)', ANCHORAGE_AK);
    const mlp = await meter(copy, { utility_type: 'electric', tariff_id: TARIFFS.mlp });
    // March 5 to April 3 printed 40.1 MWh, typed as 40.1 kWh; billed the tariff's amount for 40,100 kWh:
    // 40,100 x 0.0268176 = 1,075.39; 104 x 44.53 = 4,631.12; 92.61: $5,799.12.
    expect(dollars(electricCents(TARIFFS.mlp, ANCHORAGE[2]!))).toBe(5799.12);
    const ids = await postBills(
      copy,
      mlp,
      ANCHORAGE,
      (r) => electricCents(TARIFFS.mlp, r),
      (r, i) => (i === 2 ? { usage: 40.1 } : {}),
    );
    const got = await audits(ids);
    expect(got[2]).toMatchObject({
      status: 'unpriceable',
      reason: 'the usage looks 1000 times too small (likely_unit_error)',
      expected_amount: null,
    });
    const found = await findingsOf(mlp);
    expect(found.map(brief)).toEqual([['2025-04-03', 'likely_unit_error', 'medium', null]]);
    // The demand charge ($4,631.12) is billed on kW, whatever the kWh typed: the usage charges are the bill's energy,
    // 5,799.12 - 92.61 - 4,631.12 = $1,075.39, against 40.1 x 0.0268176 = $1.08 for 40.1 kWh: 995.7 times.
    expect(found[0]!.details).toMatchObject({ factor: 1000, direction: 'too_small', corrected_usage: 40_100 });
  });

  it('a demand charge on the wrong kW: one price_variance of what 30 kW more bill', async () => {
    const copy = await property('Kansas City office (demand billed wrong)', KANSAS_CITY_MO);
    const kcpl = await meter(copy, { utility_type: 'electric', tariff_id: TARIFFS.kcpl });
    // February 13 to March 14: the meter's peak was 138 kW (the bill's demand_kw), the utility billed 168 kW. On 168 kW the
    // first block is 180 x 168 = 30,240 kWh: 30,240 x 0.09947 = 3,007.97; 9,360 x 0.06227 = 582.85; 168 x 5.222 = 877.30;
    // 53.96: $4,522.08, against $4,164.54 on 138 kW: +$357.54 (5,400 kWh moved to the first block at 0.0372 more, 200.88,
    // and 30 kW x 5.222 = 156.66).
    const wrong = { ...KANSAS_CITY[1]!, kw: 168 };
    expect(dollars(electricCents(TARIFFS.kcpl, wrong))).toBe(4522.08);
    const ids = await postBills(copy, kcpl, KANSAS_CITY, (r, i) => electricCents(TARIFFS.kcpl, i === 1 ? wrong : r));
    await audits(ids);
    const found = await findingsOf(kcpl);
    expect(found.map(brief)).toEqual([
      ['2026-01-13', 'period_length', 'medium', null],
      ['2025-03-14', 'price_variance', 'medium', 357.54],
    ]);
    // 168 / 138 = 1.217: the bill matches 21.7 % more demand.
    expect(found[1]!.message).toMatch(
      /^billed \$4522\.08, expected \$4164\.54 on Medium General Service-MGS \(0-199 KW\) Secondary: \+\$357\.54 \(\+8\.6 %\); the billed amount matches the expected bill at 21\.7 % more demand/,
    );
  });

  it('a supply contract price billed wrong: one price_variance of the difference, in the energy lines', async () => {
    const copy = await property('Philadelphia office (supply billed wrong)', PHILADELPHIA_PA);
    const peco = await meter(copy, { utility_type: 'electric', tariff_id: TARIFFS.peco, supply_tariff_id: supplyTariff });
    // July 17 to August 14: the supplier's charge printed at $0.0769 a kWh, the contract's price is $0.0689:
    // 31,200 x 0.0769 = 2,399.28 where 31,200 x 0.0689 = 2,149.68 is due, +$249.60. Delivery: 31,200 x 0.00227 = 70.82;
    // 97 x 8.31 = 806.07; 43.53. Expected $3,070.10, billed $3,319.70.
    expect(dollars(phillyCents(PHILADELPHIA[6]!))).toBe(3070.1);
    const printed = [
      { category: 'energy', description: 'Distribution charge 31,200 kWh', amount: 70.82 },
      { category: 'demand', description: 'Distribution demand 97 kW', amount: 806.07 },
      { category: 'fixed', description: 'Customer charge', amount: 43.53 },
      { category: 'energy', description: 'Example Energy Supplier: 31,200 kWh at $0.0769', amount: 2399.28 },
    ];
    const ids = await postBills(
      copy,
      peco,
      PHILADELPHIA,
      (r, i) => (i === 6 ? 331_970 : phillyCents(r)),
      (_r, i) => (i === 6 ? { line_items: printed } : {}),
    );
    await audits(ids);
    const found = await findingsOf(peco);
    expect(found.map(brief)).toEqual([['2025-08-14', 'price_variance', 'medium', 249.6]]);
    expect(found[0]!.message).toBe(
      'billed $3319.70, expected $3070.10 on General Service Polyphase Service (GSA) Delivery: +$249.60 (+8.1 %); ' +
        'lines that differ: energy billed $2470.10, expected $2220.50 (+$249.60)',
    );
  });

  it("dashboard stats sum the open findings' dollars, never the unit error", async () => {
    // Open with dollars: the credit missing in Tucson (400.00), the demand in Kansas City (357.54), the supply price in
    // Philadelphia (249.60); the credited overcharge is closed and the unit error is never summed: $1,007.14.
    const stats = (await as(t, token).get('/pm/dashboard/stats').expect(200)).body;
    expect(stats.audit_amount_at_issue).toBe(1007.14);
  });
});
