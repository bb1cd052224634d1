import { normalizeUrdbRecord, type NormalizeResult } from './urdb.normalize';
import { readUrdbLines } from './bundled';
import { REFERENCE_DIR } from '../utilities/reference';
import { NO_APPLICABILITY, type Tariff } from './tariff.model';
import { EMPTY_STRUCTURE } from './tariff.fixtures';
import type { UrdbRecord } from './urdb.record';

// Expected values below were written by hand from each record in data/reference/urdb_tariffs.jsonl.gz.
const FLAT = '539f6a0aec4f024411ec8ab1'; // Surprise Valley, Schedule D
const TIERED = '539f6a0aec4f024411ec8aa7'; // City of Scribner, EL 10
const TOU = '539f6a63ec4f024411ec8eed'; // Central New Mexico El Coop, Rate 25
const DEMAND = '539f6b73ec4f024411ec9d2d'; // Presque Isle, Large Power Time-of-Day
const DAILY = '5925fea75457a30036de90e2'; // Montana-Dakota (WY), Rate 22
const UPSTREAM_ERROR = '53b16f625257a32153ce10db'; // Lockhart Power, C3
const BAD_DEMAND_SCHEDULE = '539fb88bec4f024bc1dc1897';
const NO_CHARGES = '539f6becec4f024411eca2f9';
const COINCIDENT = '539f6dfcec4f024411ecbcbf'; // City of Lexington (TN), Coincident Peak Rate -1
const MEMPHIS_TMSC = '5edfb0a95457a33c1acfd350'; // Memphis TMSC: additional meter, reactive power charge
const RATCHET = '539f6a80ec4f024411ec9089'; // Schedule B: 60 % demand ratchet

const records = new Map<string, UrdbRecord>();
beforeAll(() => {
  const labels = [FLAT, TIERED, TOU, DEMAND, DAILY, UPSTREAM_ERROR, BAD_DEMAND_SCHEDULE, NO_CHARGES, COINCIDENT, MEMPHIS_TMSC, RATCHET];
  for (const l of readUrdbLines(REFERENCE_DIR, new Set(labels))) records.set(l.record!.label, l.record!);
});

const IMPORTED_AT = new Date('2026-01-01T00:00:00Z');
function normalize(label: string, state: string | null = 'XX'): NormalizeResult {
  const record = records.get(label);
  if (!record) throw new Error(`fixture ${label} missing`);
  return normalizeUrdbRecord(record, { state, importedAt: IMPORTED_AT });
}
function accepted(label: string): { tariff: Tariff; warnings: string[] } {
  const r = normalize(label);
  if (!r.ok) throw new Error(`rejected: ${r.reason}`);
  return r;
}
/** A 12x24 schedule from 12 strings of 24 digits. */
const rows = (...r: string[]) => r.map((s) => [...s].map(Number));
const all = (digit: string) => rows(...Array<string>(12).fill(digit.repeat(24)));

describe('normalizeUrdbRecord on real URDB records', () => {
  it('flat: one period, one tier, monthly customer charge', () => {
    const { tariff, warnings } = accepted(FLAT);
    expect(warnings).toEqual([]);
    expect(tariff).toMatchObject({
      id: FLAT,
      name: 'SCHEDULE D - Domestic and General Service',
      utilityId: '18260',
      utilityName: 'Surprise Valley Electrification Corp.',
      state: 'XX',
      sector: 'commercial',
      rateType: 'flat',
      hasTou: false,
      hasDemand: false,
      hasNetMetering: false,
      effectiveDate: '2011-12-01',
      expirationDate: null,
      eligibility: '',
      sourceUrl: 'https://apps.openei.org/IURDB/rate/view/539f6a0aec4f024411ec8ab1',
      lastUpdated: '2015-03-26T21:26:29.000Z',
    });
    expect(tariff.description.startsWith('Domestic and small general service\nSchedule D')).toBe(true);
    // every other charge of the structure is absent (null, none, false)
    expect(tariff.structure).toEqual({
      ...EMPTY_STRUCTURE,
      energy: {
        periods: [[{ max: null, unit: 'kWh', rate: 0.064, sell: null }]],
        weekday: all('0'),
        weekend: all('0'),
        periodNames: ['all_year'],
      },
      fixedCharges: [{ name: 'Fixed customer charge', amount: 10, frequency: 'monthly' }],
    });
    // the record publishes no applicability: every bound null
    expect(tariff.applicability).toEqual(NO_APPLICABILITY);
  });

  it('tiered and seasonal: June-September summer blocks, winter blocks otherwise', () => {
    const { tariff, warnings } = accepted(TIERED);
    expect(warnings).toEqual([]);
    expect(tariff.rateType).toBe('tiered');
    expect(tariff.effectiveDate).toBe('2013-01-01');
    expect(tariff.eligibility).toBe('Phase wiring: Single Phase.');
    const season = rows(...'111110000111'.split('').map((d) => d.repeat(24)));
    expect(tariff.structure.energy).toEqual({
      periods: [
        [
          { max: 200, unit: 'kWh', rate: 0.1373, sell: null },
          { max: null, unit: 'kWh', rate: 0.0544, sell: null },
        ],
        [
          { max: 200, unit: 'kWh', rate: 0.0939, sell: null },
          { max: null, unit: 'kWh', rate: 0.0391, sell: null },
        ],
      ],
      weekday: season,
      weekend: season,
      periodNames: ['summer', 'winter'],
    });
    expect(tariff.structure.fixedCharges).toEqual([{ name: 'Fixed customer charge', amount: 60, frequency: 'monthly' }]);
  });

  it('time-of-use with distinct weekday and weekend schedules', () => {
    const { tariff } = accepted(TOU);
    expect(tariff).toMatchObject({ rateType: 'tou', hasTou: true, hasDemand: false, sector: 'residential', effectiveDate: null });
    const winter = '111111000011111100000001';
    const summer = '111111111111111100000001';
    expect(tariff.structure.energy).toEqual({
      periods: [[{ max: null, unit: 'kWh', rate: 0.15, sell: null }], [{ max: null, unit: 'kWh', rate: 0.062, sell: null }]],
      weekday: rows(winter, winter, winter, summer, summer, summer, summer, summer, summer, winter, winter, winter),
      weekend: all('0'),
      periodNames: ['on_peak', 'off_peak'],
    });
  });

  it('facility (flat) demand plus TOU demand; energy price is rate + adj', () => {
    const { tariff } = accepted(DEMAND);
    expect(tariff).toMatchObject({ rateType: 'demand', hasTou: false, hasDemand: true, effectiveDate: '2014-02-01' });
    expect(tariff.eligibility).toBe('Peak demand at least 50 kW. Voltage category: Secondary. Phase wiring: 3-Phase.');
    expect(tariff.applicability).toEqual({
      demandKwMin: 50,
      demandKwMax: null,
      usageKwhMin: null,
      usageKwhMax: null,
      voltageCategory: 'Secondary',
      phaseWiring: '3-Phase',
    });
    expect(tariff.structure.energy?.periods).toEqual([[{ max: null, unit: 'kWh', rate: 0.07057, sell: null }]]);
    const weekday = rows(...Array<string>(12).fill('000000000000000001111100'));
    expect(tariff.structure.demandTou).toEqual({
      periods: [[{ max: null, rate: 0 }], [{ max: null, rate: 6 }]],
      weekday,
      weekend: all('0'),
      unit: 'kW',
      periodNames: ['off_peak', 'on_peak'],
    });
    expect(tariff.structure.demandFlat).toEqual({ periods: [[{ max: null, rate: 6.55 }]], months: Array(12).fill(0), unit: 'kW' });
    expect(tariff.structure.fixedCharges).toEqual([{ name: 'Fixed customer charge', amount: 135.13, frequency: 'monthly' }]);
  });

  it('daily fixed charge and net metering', () => {
    const { tariff } = accepted(DAILY);
    expect(tariff).toMatchObject({
      rateType: 'flat',
      hasNetMetering: true,
      effectiveDate: '2017-03-01',
      eligibility: 'Service type: Bundled.',
    });
    expect(tariff.structure.fixedCharges).toEqual([{ name: 'Fixed customer charge', amount: 0.23, frequency: 'daily' }]);
    expect(tariff.structure.energy?.periods).toEqual([[{ max: null, unit: 'kWh', rate: 0.05708, sell: null }]]);
    expect(tariff.structure.dgRules).toBe('Net Metering');
    expect(tariff.description.includes('\r')).toBe(false);
  });

  it('upstream tier error: tiers after an unbounded middle tier are dropped and reported', () => {
    const { tariff, warnings } = accepted(UPSTREAM_ERROR);
    expect(tariff.structure.energy?.periods).toEqual([
      [
        { max: 3000, unit: 'kWh', rate: 0.1344, sell: null },
        { max: null, unit: 'kWh', rate: 0.0738, sell: null },
      ],
    ]);
    expect(warnings).toEqual(['energy period 1 tier 2: no bound before the last tier; tier 3 is unreachable and dropped']);
    expect(tariff.structure.demandFlat?.periods).toEqual([
      [
        { max: 30, rate: 0 },
        { max: null, rate: 4 },
      ],
    ]);
    // Tiered energy, but a demand charge exists: demand wins over tiered.
    expect(tariff.rateType).toBe('demand');
  });

  it('coincident-peak demand: kept with its schedule, and it counts as a demand charge', () => {
    const { tariff, warnings } = accepted(COINCIDENT);
    expect(warnings).toEqual([]);
    // Its only demand charge is the coincident one (7.33 $/kW January-May and October-December, 25.07 June-September)
    expect(tariff).toMatchObject({ rateType: 'demand', hasTou: false, hasDemand: true });
    expect(tariff.structure.demandTou).toBeNull();
    expect(tariff.structure.demandFlat).toBeNull();
    expect(tariff.structure.demandCoincident).toEqual({
      periods: [[{ max: null, rate: 7.33 }], [{ max: null, rate: 25.07 }]],
      schedule: rows(...'000001111000'.split('').map((d) => d.repeat(24))),
      unit: 'kW',
      periodNames: ['winter', 'summer'],
    });
    expect(tariff.applicability).toMatchObject({ demandKwMin: 100, demandKwMax: 500 });
  });

  it('a coincident structure whose rates are all 0 is kept but is no demand charge', () => {
    const base = records.get(COINCIDENT)!;
    const r = normalizeUrdbRecord(
      { ...base, coincidentratestructure: [[{ rate: 0 }], [{ rate: 0 }]] },
      { state: null, importedAt: IMPORTED_AT },
    );
    expect(r.ok && [r.tariff.hasDemand, r.tariff.rateType]).toEqual([false, 'tiered']);
  });

  it('a missing coincident schedule: one period applies to every hour, several are a reason to skip', () => {
    const base = records.get(COINCIDENT)!;
    const one = normalizeUrdbRecord(
      { ...base, coincidentratestructure: [[{ rate: 5 }]], coincidentschedule: undefined },
      { state: null, importedAt: IMPORTED_AT },
    );
    expect(one.ok && one.tariff.structure.demandCoincident?.schedule).toEqual(all('0'));
    expect(one.ok && one.warnings).toEqual([
      'coincidentschedule missing with one coincident demand period: that period applies to every hour',
    ]);
    expect(normalizeUrdbRecord({ ...base, coincidentschedule: undefined }, { state: null, importedAt: IMPORTED_AT })).toEqual({
      ok: false,
      reason: 'coincidentschedule missing with several coincident demand periods',
    });
  });

  it('keeps the additional-meter charge, the reactive power charge and the demand ratchet', () => {
    const memphis = accepted(MEMPHIS_TMSC).tariff;
    expect(memphis.structure.additionalMeterCharge).toEqual({ amount: 350, frequency: 'monthly' });
    expect(memphis.structure.reactivePowerCharge).toBe(1.49);
    expect(memphis.structure.demandRatchet).toBeNull();
    expect(memphis.applicability).toEqual({
      demandKwMin: 15000,
      demandKwMax: 25000,
      usageKwhMin: null,
      usageKwhMax: null,
      voltageCategory: null,
      phaseWiring: 'Single and 3-Phase',
    });
    const ratchet = accepted(RATCHET).tariff;
    expect(ratchet.structure.demandRatchet).toEqual({ percent: 0.6, months: Array(12).fill(true), rangeMonths: 0 });
    expect(ratchet.structure.additionalMeterCharge).toBeNull();
    expect(ratchet.structure.reactivePowerCharge).toBeNull();
    // stated, not priced: a value that is not a number is left out with a warning, the record is kept
    const bad = normalizeUrdbRecord(
      { ...records.get(MEMPHIS_TMSC)!, demandreactivepowercharge: 'n/a' as unknown as number },
      { state: null, importedAt: IMPORTED_AT },
    );
    expect(bad.ok && [bad.tariff.structure.reactivePowerCharge, bad.warnings]).toEqual([
      null,
      ['demandreactivepowercharge is not a number; not kept'],
    ]);
  });

  it('keeps the demand window (demandwindow) interval data is priced with: 15, 30 or 60 minutes; another value with a warning', () => {
    const window = (demandwindow: unknown) => {
      const r = normalizeUrdbRecord({ ...records.get(MEMPHIS_TMSC)!, demandwindow } as never, { state: null, importedAt: IMPORTED_AT });
      return r.ok ? [r.tariff.structure.demandWindowMinutes, r.warnings] : null;
    };
    expect(window(30)).toEqual([30, []]);
    expect(window(60)).toEqual([60, []]);
    expect(window(undefined)).toEqual([undefined, []]);
    expect(window(0.15)).toEqual([
      undefined,
      ['demandwindow 0.15 is not 15, 30 or 60 minutes; interval data is priced with a 15-minute window'],
    ]);
  });

  it('rejects records it cannot hold as published, with the reason', () => {
    expect(normalize(BAD_DEMAND_SCHEDULE)).toEqual({
      ok: false,
      reason: 'demandweekdayschedule refers to period 3 but only 2 are defined',
    });
    expect(normalize(NO_CHARGES)).toEqual({ ok: false, reason: 'record has no energy, demand or fixed charges' });
  });

  it('rejects an unknown sector and a malformed schedule', () => {
    const base = records.get(FLAT)!;
    expect(normalizeUrdbRecord({ ...base, sector: 'Marine' }, { state: null, importedAt: IMPORTED_AT })).toMatchObject({ ok: false });
    expect(normalizeUrdbRecord({ ...base, energyweekdayschedule: [[0]] }, { state: null, importedAt: IMPORTED_AT })).toEqual({
      ok: false,
      reason: 'energyweekdayschedule is not 12 months of 24 hours',
    });
  });

  it('falls back to the import time when a record has no revisions', () => {
    const base = records.get(FLAT)!;
    const r = normalizeUrdbRecord({ ...base, revisions: [] }, { state: null, importedAt: IMPORTED_AT });
    expect(r.ok && r.tariff.lastUpdated).toBe('2026-01-01T00:00:00.000Z');
  });
});
