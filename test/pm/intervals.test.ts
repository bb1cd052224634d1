import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { SaxesParser } from 'saxes';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createMeter, createProperty } from './helpers';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'green-button');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** Every element of an XML document, failing on one that is not well-formed. */
function parseXml(text: string): Array<{ name: string; attributes: Record<string, string>; text: string }> {
  const parser = new SaxesParser();
  const out: Array<{ name: string; attributes: Record<string, string>; text: string }> = [];
  const open: typeof out = [];
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (t) => {
    const el = { name: t.name, attributes: t.attributes as Record<string, string>, text: '' };
    out.push(el);
    open.push(el);
  });
  parser.on('text', (t) => {
    if (open.length) open[open.length - 1]!.text += t;
  });
  parser.on('closetag', () => open.pop());
  parser.write(text).close();
  return out;
}

describe('meter interval data (issue 50)', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    bob = (await registerUser(t)).token;
  });
  afterAll(() => t.stop());

  async function electricMeter(property: Record<string, unknown>) {
    const p = await createProperty(t, alice, property);
    const m = await createMeter(t, alice, p.id, { utility_type: 'electric' });
    return m.id;
  }
  const NEW_YORK = { city: 'New York', state: 'NY', zip_code: '10001' };
  const LOS_ANGELES = { city: 'Los Angeles', state: 'CA', zip_code: '90012' };

  it("a property's time zone comes from its ZIP code, can be set to an IANA name, and null gives the ZIP code's back", async () => {
    const p = await createProperty(t, alice, { city: 'Evansville', state: 'IN', zip_code: '47708' });
    expect(p).toMatchObject({ timezone: 'America/Chicago', timezone_source: 'zip_code' });
    const bad = await as(t, alice).patch(`/pm/properties/${p.id}`, { timezone: 'Mars/Olympus_Mons' }).expect(422);
    expect(bad.body.errors).toEqual([{ field: 'timezone', message: 'not an IANA time zone (e.g. America/Denver)' }]);
    await as(t, alice)
      .patch(`/pm/properties/${p.id}`, { timezone: 'America/Indiana/Indianapolis' })
      .expect(200)
      .then((r) => expect(r.body).toMatchObject({ timezone: 'America/Indiana/Indianapolis', timezone_source: 'set' }));
    await as(t, alice)
      .patch(`/pm/properties/${p.id}`, { timezone: null })
      .expect(200)
      .then((r) => expect(r.body).toMatchObject({ timezone: 'America/Chicago', timezone_source: 'zip_code' }));
    const set = await createProperty(t, alice, { timezone: 'America/Denver' });
    expect(set).toMatchObject({ timezone: 'America/Denver', timezone_source: 'set' });
  });

  it('imports the Green Button Alliance 15-minute sample across the spring-forward day, and again as duplicates', async () => {
    const meter = await electricMeter(NEW_YORK);
    const file = fixture('gba-fifteen-minute-march-2012-eastern.xml');
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, file, 'usage.xml').expect(200);
    // 14 days of 96 intervals less the 4 of the hour skipped on 2012-03-11.
    expect(res.body).toMatchObject({
      meter_id: meter,
      format: 'espi_xml',
      interval_minutes: 15,
      timezone: 'America/New_York',
      readings: 1340,
      stored: 1340,
      duplicates: 0,
      replaced: 0,
      first_start: '2012-03-01T00:00:00-05:00',
      last_end: '2012-03-15T00:00:00-04:00',
      gaps: { missing_intervals: 0, spans: [] },
      dst_repeats: 0,
      rejected_count: 0,
    });
    const again = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, file, 'usage.xml').expect(200);
    expect(again.body).toMatchObject({ readings: 1340, stored: 0, duplicates: 1340, replaced: 0 });

    // The 23-hour day reads back as 92 intervals; 01:45 EST is followed by 03:00 EDT.
    const day = await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2012-03-11&end=2012-03-12`).expect(200);
    expect(day.body).toMatchObject({
      timezone: 'America/New_York',
      start: '2012-03-11T00:00:00-05:00',
      end: '2012-03-12T00:00:00-04:00',
      interval_minutes: 15,
      count: 92,
    });
    const starts = day.body.readings.map((r: { start: string }) => r.start);
    expect(starts.slice(7, 9)).toEqual(['2012-03-11T01:45:00-05:00', '2012-03-11T03:00:00-04:00']);
    const csv = await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2012-03-11&end=2012-03-12&format=csv`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('start,end,kwh');
    expect(lines).toHaveLength(93);
    expect(lines[1]).toBe(`2012-03-11T00:00:00-05:00,2012-03-11T00:15:00-05:00,${day.body.readings[0].kwh}`);
    const viaAccept = await as(t, alice)
      .get(`/pm/meters/${meter}/intervals?start=2012-03-11&end=2012-03-12`)
      .set('Accept', 'text/csv')
      .expect(200);
    expect(viaAccept.text).toBe(csv.text);
  });

  it('imports the EnergyOS hourly sample (Wh, powerOfTenMultiplier 0) at its UTC instants', async () => {
    const meter = await electricMeter(LOS_ANGELES);
    const res = await as(t, alice)
      .upload(`/pm/meters/${meter}/intervals`, fixture('energyos-coastal-single-family-hourly.xml'), 'cs.xml')
      .expect(200);
    expect(res.body).toMatchObject({
      format: 'espi_xml',
      interval_minutes: 60,
      readings: 362,
      stored: 362,
      first_start: '2011-01-01T00:00:00-08:00',
      gaps: { missing_intervals: 0 },
    });
    const first = await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2011-01-01&end=2011-01-02`).expect(200);
    // The file's first readings: 703, 607, 543 Wh.
    expect(first.body.readings.slice(0, 3)).toEqual([
      { start: '2011-01-01T00:00:00-08:00', end: '2011-01-01T01:00:00-08:00', kwh: 0.703 },
      { start: '2011-01-01T01:00:00-08:00', end: '2011-01-01T02:00:00-08:00', kwh: 0.607 },
      { start: '2011-01-01T02:00:00-08:00', end: '2011-01-01T03:00:00-08:00', kwh: 0.543 },
    ]);
  });

  it('a ReadingType powerOfTenMultiplier scales the values (kWh = Wh x 10^3)', async () => {
    const meter = await electricMeter(NEW_YORK);
    const file = fixture('gba-fifteen-minute-one-day.xml')
      .toString('utf8')
      .replace(/<powerOfTenMultiplier>0</g, '<powerOfTenMultiplier>3<');
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, file, 'kwh.xml').expect(200);
    expect(res.body).toMatchObject({ readings: 96, stored: 96 });
    const original = fixture('gba-fifteen-minute-one-day.xml').toString('utf8');
    const firstValue = Number(/<IntervalReading>[\s\S]*?<value>(\d+)<\/value>/.exec(original)![1]);
    const read = await as(t, alice)
      .get(`/pm/meters/${meter}/intervals?start=${res.body.first_start}&end=${res.body.last_end}`.replace(/\+/g, '%2B'))
      .expect(200);
    expect(read.body.readings[0].kwh).toBe(firstValue);
  });

  it('refuses files that are not Green Button data with a 422 on file', async () => {
    const meter = await electricMeter(NEW_YORK);
    const real = fixture('gba-fifteen-minute-one-day.xml').toString('utf8');
    const cases: Array<[string, string | Buffer, RegExp]> = [
      ['truncated XML', real.slice(0, Math.floor(real.length / 2)), /^not a Green Button file: not well-formed XML/],
      [
        'a feed without readings',
        fixture('gba-usage-feed-without-readings.xml'),
        /^not a Green Button file: no electric interval readings/,
      ],
      ['power (W), not energy', real.replace(/<uom>72</g, '<uom>38<'), /ReadingType uom 38 is not energy in Wh \(72\)/],
      [
        'energy received from the customer',
        real.replace(/<flowDirection>1</g, '<flowDirection>19<'),
        /flowDirection 19 is not forward \(1\)/,
      ],
      ['an HTML page', '<!DOCTYPE html><html><body>Sign in</body></html>', /root element is <html>/],
      ['a bills CSV', 'period_start,period_end,amount\n2026-01-01,2026-01-31,100\n', /no header row of a known layout/],
      ['an empty file', '  \n', /the file is empty/],
      ['a reading without a value', real.replace(/<value>\d+<\/value>/, ''), /IntervalReading at line \d+ lacks value/],
    ];
    for (const [what, body, detail] of cases) {
      const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, Buffer.from(body), 'x.xml');
      expect([what, res.status]).toEqual([what, 422]);
      expect(res.body.errors[0].field).toBe('file');
      expect([what, res.body.detail]).toEqual([what, expect.stringMatching(detail)]);
    }
    const none = await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2000-01-01&end=2000-12-31`).expect(200);
    expect(none.body.count).toBe(0);
  });

  it('a reading sent twice in one file: the later one is kept, counted as a duplicate', async () => {
    const meter = await electricMeter(NEW_YORK);
    const csv = [
      'start,end,kwh',
      '2020-01-01T00:00:00-05:00,2020-01-01T00:15:00-05:00,1.5',
      '2020-01-01T00:15:00-05:00,2020-01-01T00:30:00-05:00,1',
      '2020-01-01T00:00:00-05:00,2020-01-01T00:15:00-05:00,2.5',
    ].join('\n');
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, csv, 'twice.csv').expect(200);
    expect(res.body).toMatchObject({ readings: 3, stored: 2, duplicates: 1, replaced: 1 });
    const read = await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2020-01-01&end=2020-01-02`).expect(200);
    expect(read.body.readings.map((r: { kwh: number }) => r.kwh)).toEqual([2.5, 1]);
  });

  it('PG&E CSV: the fall-back hour is read twice in order, a spring-forward time is rejected, gaps are reported', async () => {
    const meter = await electricMeter(LOS_ANGELES);
    const rows: string[] = [];
    const row = (date: string, start: string, end: string, kwh: number) =>
      rows.push(`Electric usage,${date},${start},${end},${kwh},kWh,$0.10,`);
    for (const h of [0, 1, 1, 2])
      for (const m of [0, 15, 30, 45])
        row(
          '2019-11-03',
          `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`,
          `${String(h).padStart(2, '0')}:${String(m + 14).padStart(2, '0')}`,
          1,
        );
    row('2019-11-03', '04:00', '04:14', 2); // 03:00 to 03:45 missing: a gap of 4 intervals
    row('2019-03-10', '02:15', '02:29', 1); // does not exist in Los Angeles
    const csv = [
      'Name,ALEX EXAMPLE',
      'Address,"1 MAIN ST, LOS ANGELES CA"',
      'Account Number,1234567890',
      '',
      'TYPE,DATE,START TIME,END TIME,USAGE,UNITS,COST,NOTES',
      ...rows,
    ].join('\n');
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, csv, 'pge.csv').expect(200);
    expect(res.body).toMatchObject({
      format: 'csv_pge',
      interval_minutes: 15,
      readings: 17,
      stored: 17,
      duplicates: 0,
      dst_repeats: 8,
      first_start: '2019-11-03T00:00:00-07:00',
      last_end: '2019-11-03T04:15:00-08:00',
      gaps: { missing_intervals: 4, spans: [{ start: '2019-11-03T03:00:00-08:00', end: '2019-11-03T04:00:00-08:00', intervals: 4 }] },
      rejected_count: 1,
      rejected: [{ line: 23, detail: '2019-3-10 2:15 does not exist in America/Los_Angeles (the spring-forward hour)' }],
    });
    const day = await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2019-11-03&end=2019-11-04`).expect(200);
    expect(day.body.readings.slice(4, 12).map((r: { start: string }) => r.start)).toEqual([
      '2019-11-03T01:00:00-07:00',
      '2019-11-03T01:15:00-07:00',
      '2019-11-03T01:30:00-07:00',
      '2019-11-03T01:45:00-07:00',
      '2019-11-03T01:00:00-08:00',
      '2019-11-03T01:15:00-08:00',
      '2019-11-03T01:30:00-08:00',
      '2019-11-03T01:45:00-08:00',
    ]);
  });

  it('SCE CSV: delivered readings stored, the "Received" section skipped; SDG&E CSV', async () => {
    const meter = await electricMeter(LOS_ANGELES);
    const period = (i: number) => {
      const p = (n: number) => String(n).padStart(2, '0');
      const a = i * 15;
      const b = a + 15;
      const end = b === 1440 ? '2024-05-23 00:00:00' : `2024-05-22 ${p(Math.floor(b / 60))}:${p(b % 60)}:00`;
      return `2024-05-22 ${p(Math.floor(a / 60))}:${p(a % 60)}:00 to ${end}`;
    };
    const lines = [
      'Energy Usage Information,,',
      'For location: Someplace served by SCE,,',
      ',,',
      'Detailed Usage,,',
      'Data for period starting: 2024-05-22 00:00:00  for 24 hours,,',
      'Energy  Delivered time period,Usage Delivered(Real energy in kilowatt-hours)(Real energy in kilowatt-hours),Reading quality',
      ...Array.from({ length: 96 }, (_, i) => `${period(i)},0.04,`),
      ',,',
      'Data for period starting: 2024-05-22 00:00:00  for 24 hours,,',
      'Energy  Received time period,Usage Received(Real energy in kilowatt-hours)(Real energy in kilowatt-hours),Reading quality',
      ...Array.from({ length: 96 }, (_, i) => `${period(i)},0.01,`),
    ];
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, lines.join('\n'), 'sce.csv').expect(200);
    expect(res.body).toMatchObject({
      format: 'csv_sce',
      readings: 96,
      stored: 96,
      first_start: '2024-05-22T00:00:00-07:00',
      last_end: '2024-05-23T00:00:00-07:00',
      skipped: [{ reason: 'energy received from the customer (a "Received" section)', readings: 96 }],
      rejected_count: 0,
    });
    const profile = await as(t, alice).get(`/pm/meters/${meter}/load-profile?start=2024-05-22&end=2024-05-23`).expect(200);
    expect(profile.body).toMatchObject({ readings: 96, energy_kwh: 3.84, peak_kw: 0.16, load_factor: 1, base_load_kw: 0.16 });

    const sdge = [
      'Meter Number,Date,Start Time,Duration,Consumption,Generation,Net',
      '12345,1/1/2019,12:00 AM,15,0.2,0,0.2',
      '12345,1/1/2019,12:15 AM,15,0.3,0,0.3',
    ].join('\n');
    const other = await electricMeter(LOS_ANGELES);
    const s = await as(t, alice).upload(`/pm/meters/${other}/intervals`, sdge, 'sdge.csv').expect(200);
    expect(s.body).toMatchObject({ format: 'csv_sdge', readings: 2, stored: 2, first_start: '2019-01-01T00:00:00-08:00' });
  });

  it('load profile as JSON and as an SVG chart that parses as XML and carries the data', async () => {
    const meter = await electricMeter({ city: 'Denver', state: 'CO', zip_code: '80202' });
    // The worked example of load-profile.test.ts, as a start,end,kwh CSV.
    const rows = [
      ['2019-07-01T06:00', 2],
      ['2019-07-01T07:00', 4],
      ['2019-07-01T12:00', 10],
      ['2019-07-01T18:00', 4],
      ['2019-07-06T07:00', 3],
      ['2019-07-06T12:00', 5],
    ] as const;
    const csv = [
      'start,end,kwh',
      ...rows.map(([s, k]) => `${s}:00-06:00,${s.slice(0, 11)}${String(Number(s.slice(11, 13)) + 1).padStart(2, '0')}:00:00-06:00,${k}`),
    ].join('\n');
    const imported = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, csv, 'generic.csv').expect(200);
    expect(imported.body).toMatchObject({ format: 'csv_generic', interval_minutes: 60, readings: 6 });
    const json = await as(t, alice).get(`/pm/meters/${meter}/load-profile?start=2019-07-01&end=2019-07-08`).expect(200);
    expect(json.body).toMatchObject({
      timezone: 'America/Denver',
      readings: 6,
      energy_kwh: 28,
      peak_kw: 10,
      peak_at: '2019-07-01T12:00:00-06:00',
      average_kw: 4.667,
      load_factor: 0.4667,
      base_load_kw: 2,
      after_hours_share: 0.5,
    });
    expect(json.body.weekday_by_hour[12]).toBe(10);
    expect(json.body.weekend_by_hour[7]).toBe(3);

    const svg = await as(t, alice)
      .get(`/pm/meters/${meter}/load-profile?start=2019-07-01&end=2019-07-08`)
      .set('Accept', 'image/svg+xml')
      .expect(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const text = svg.body instanceof Buffer ? svg.body.toString('utf8') : svg.text;
    const els = parseXml(text);
    expect(els[0]).toMatchObject({
      name: 'svg',
      attributes: { xmlns: 'http://www.w3.org/2000/svg', role: 'img', 'aria-labelledby': 'lp-title lp-desc' },
    });
    expect(els.find((e) => e.name === 'desc')!.text).toContain(
      'Peak 10 kW at 2019-07-01T12:00:00-06:00; load factor 0.4667; base load 2 kW',
    );
    const dots = els.filter((e) => e.name === 'circle').map((e) => [e.attributes['data-hour'], e.attributes['data-kw']]);
    expect(dots).toEqual([
      ['6', '2'],
      ['7', '4'],
      ['12', '10'],
      ['18', '4'],
      ['7', '3'],
      ['12', '5'],
    ]);
    const viaQuery = await as(t, alice).get(`/pm/meters/${meter}/load-profile?start=2019-07-01&end=2019-07-08&format=svg`).expect(200);
    expect(viaQuery.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it("electric meters only; another owner's meter is not found; ranges are checked", async () => {
    const p = await createProperty(t, alice, NEW_YORK);
    const gas = await createMeter(t, alice, p.id, { utility_type: 'gas' });
    const r = await as(t, alice).upload(`/pm/meters/${gas.id}/intervals`, fixture('gba-fifteen-minute-one-day.xml'), 'x.xml').expect(422);
    expect(r.body.detail).toBe('interval data is for electric meters; this one is gas');
    const meter = await electricMeter(NEW_YORK);
    await as(t, bob).upload(`/pm/meters/${meter}/intervals`, fixture('gba-fifteen-minute-one-day.xml'), 'x.xml').expect(404);
    await as(t, bob).get(`/pm/meters/${meter}/intervals?start=2012-01-01&end=2012-02-01`).expect(404);
    await as(t, bob).get(`/pm/meters/${meter}/load-profile?start=2012-01-01&end=2012-02-01`).expect(404);
    const bad = await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2012-01-01&end=2013-06-01`).expect(422);
    expect(bad.body.detail).toBe('a range is at most 400 days');
    await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2012-02-01&end=2012-01-01`).expect(422);
    await as(t, alice).get(`/pm/meters/${meter}/intervals?start=yesterday-ish&end=2012-01-01`).expect(422);
    await as(t, alice).get(`/pm/meters/${meter}/intervals?start=2012-01-01`).expect(422);
    await request(t.app).get(`/api/v1/pm/meters/${meter}/intervals?start=2012-01-01&end=2012-02-01`).expect(401);
  });
});
