import {
  chargesNothing,
  SECTORS,
  type ChargeFrequency,
  type CoincidentDemandStructure,
  type DemandRatchet,
  type DgRules,
  type EnergyStructure,
  type FixedCharge,
  type FlatDemandStructure,
  type MinimumCharge,
  type RateType,
  type Sector,
  type Tariff,
  type Schedule12x24,
  type TariffApplicability,
  type TariffStructure,
  type TouDemandStructure,
} from './tariff.model';
import { UrdbRecordError, type UrdbRecord, type UrdbTier } from './urdb.record';
import { demandTiers, energyTiers } from './urdb.tiers';
import { checkSchedule, namePeriods, variesWithinDay } from './urdb.periods';
import { classifyTariff, type ClassInput } from './tariff-class';

/** What the importer knows about the record's utility from EIA-861 (see utilities/reference.ts for the state rule). */
export interface UtilityInfo {
  state: string | null;
  /** The utility's name in the utility records (EIA-861), which every tariff of it carries; null: the record's own. */
  name?: string | null;
  /** Fallback for `lastUpdated` when the record has no revisions. */
  importedAt: Date;
}

export type NormalizeResult = { ok: true; tariff: Tariff; warnings: string[] } | { ok: false; reason: string };

const DG_RULES: readonly DgRules[] = ['Net Metering', 'Net Billing Instantaneous', 'Net Billing Hourly', 'Buy All Sell All'];
const FREQUENCIES: Record<string, ChargeFrequency> = { '$/month': 'monthly', '$/day': 'daily', '$/year': 'yearly' };

/** UTC calendar date of a Unix-seconds timestamp (URDB stores dates as a time on that day). */
export function utcDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/**
 * Classification (documented rule): `tou` when the energy period changes within
 * a day; else `demand` when a demand charge exists (a non-zero TOU, flat or
 * coincident-peak demand rate: each is billed per kW and needs demand_kw);
 * else `tiered` when any energy period has more than one tier; else `flat`.
 * `real_time` only for records with real-time pricing (URDB records carry none).
 */
export function classify(s: TariffStructure): { rateType: RateType; hasTou: boolean; hasDemand: boolean; hasNetMetering: boolean } {
  const hasTou = s.energy !== null && variesWithinDay(s.energy.weekday, s.energy.weekend);
  const demandRates = [...(s.demandTou?.periods ?? []), ...(s.demandFlat?.periods ?? []), ...(s.demandCoincident?.periods ?? [])].flat();
  const hasDemand = demandRates.some((t) => t.rate !== 0);
  const tiered = s.energy !== null && s.energy.periods.some((p) => p.length > 1);
  const rateType: RateType = s.realTime ? 'real_time' : hasTou ? 'tou' : hasDemand ? 'demand' : tiered ? 'tiered' : 'flat';
  return { rateType, hasTou, hasDemand, hasNetMetering: s.dgRules === 'Net Metering' };
}

/** A rate structure's periods, each one's tiers read by `tiersOf`; a structure without periods is refused. */
function periodsOf<T>(
  structure: UrdbTier[][],
  field: string,
  periodName: string,
  tiersOf: (raw: UrdbTier[], where: string, warnings: string[]) => T[],
  warnings: string[],
): T[][] {
  const periods = structure.map((p, i) => tiersOf(p, `${periodName} ${i + 1}`, warnings));
  if (periods.length === 0) throw new UrdbRecordError(`${field} has no periods`);
  return periods;
}

/** The periods' names from their first tiers' rates and the schedules that use them (urdb.periods). */
const periodNamesOf = (periods: { rate: number }[][], weekday: Schedule12x24, weekend: Schedule12x24): string[] =>
  namePeriods(
    periods.map((p) => p[0].rate),
    weekday,
    weekend,
  );

/**
 * A structure priced by time of day (`energy` or `demand`): its periods' tiers, its weekday and
 * weekend schedules checked against them, and the periods' names; null when the record has none.
 */
function scheduledOf<T extends { rate: number }>(
  r: UrdbRecord,
  kind: 'energy' | 'demand',
  tiersOf: (raw: UrdbTier[], where: string, warnings: string[]) => T[],
  warnings: string[],
): { periods: T[][]; weekday: Schedule12x24; weekend: Schedule12x24; periodNames: string[] } | null {
  const structure = r[`${kind}ratestructure`];
  if (structure === undefined) return null;
  const periods = periodsOf(structure, `${kind}ratestructure`, `${kind} period`, tiersOf, warnings);
  const weekday = checkSchedule(r[`${kind}weekdayschedule`], periods.length, `${kind}weekdayschedule`);
  const weekend = checkSchedule(r[`${kind}weekendschedule`], periods.length, `${kind}weekendschedule`);
  return { periods, weekday, weekend, periodNames: periodNamesOf(periods, weekday, weekend) };
}

function energyOf(r: UrdbRecord, warnings: string[]): EnergyStructure | null {
  return scheduledOf(r, 'energy', energyTiers, warnings);
}

function demandTouOf(r: UrdbRecord, warnings: string[]): TouDemandStructure | null {
  const scheduled = scheduledOf(r, 'demand', demandTiers, warnings);
  if (scheduled === null) return null;
  const { periods, weekday, weekend, periodNames } = scheduled;
  return { periods, weekday, weekend, unit: r.demandrateunit ?? 'kW', periodNames };
}

function demandFlatOf(r: UrdbRecord, warnings: string[]): FlatDemandStructure | null {
  if (r.flatdemandstructure === undefined) return null;
  const periods = periodsOf(r.flatdemandstructure, 'flatdemandstructure', 'flat demand period', demandTiers, warnings);
  let months = r.flatdemandmonths;
  if (months === undefined) {
    if (periods.length !== 1) throw new UrdbRecordError('flatdemandmonths missing with several flat demand periods');
    warnings.push('flatdemandmonths missing with one flat demand period: that period applies to every month');
    months = Array<number>(12).fill(0);
  }
  if (!Array.isArray(months) || months.length !== 12) throw new UrdbRecordError('flatdemandmonths is not 12 values');
  for (const m of months) {
    if (!Number.isInteger(m) || m < 0 || m >= periods.length) {
      throw new UrdbRecordError(`flatdemandmonths refers to period ${m + 1} but only ${periods.length} are defined`);
    }
  }
  return { periods, months: [...months], unit: r.flatdemandunit ?? 'kW' };
}

function demandCoincidentOf(r: UrdbRecord, warnings: string[]): CoincidentDemandStructure | null {
  if (r.coincidentratestructure === undefined) return null;
  const periods = periodsOf(r.coincidentratestructure, 'coincidentratestructure', 'coincident demand period', demandTiers, warnings);
  let raw: unknown = r.coincidentschedule;
  if (raw === undefined) {
    if (periods.length !== 1) throw new UrdbRecordError('coincidentschedule missing with several coincident demand periods');
    warnings.push('coincidentschedule missing with one coincident demand period: that period applies to every hour');
    raw = Array.from({ length: 12 }, () => Array<number>(24).fill(0));
  }
  const schedule = checkSchedule(raw, periods.length, 'coincidentschedule');
  const unit = r.coincidentrateunit ?? 'kW';
  return { periods, schedule, unit, periodNames: periodNamesOf(periods, schedule, schedule) };
}

/** The demand window in minutes (`demandwindow`) when it is one interval data is priced with (15, 30, 60); else none, with a warning. */
function demandWindowOf(r: UrdbRecord, warnings: string[]): { demandWindowMinutes?: number } {
  const w = r.demandwindow;
  if (w === undefined || w === null) return {};
  if (w === 15 || w === 30 || w === 60) return { demandWindowMinutes: w };
  warnings.push(`demandwindow ${String(w)} is not 15, 30 or 60 minutes; interval data is priced with a 15-minute window`);
  return {};
}

/**
 * A published number the bill states but does not price (additional-meter and
 * reactive power charges, demand ratchet): one that is not a number is left
 * out with a warning rather than rejecting the whole record.
 */
function statedNumber(value: unknown, what: string, warnings: string[]): number | null {
  if (value === undefined) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  warnings.push(`${what} is not a number; not kept`);
  return null;
}

function demandRatchetOf(r: UrdbRecord, warnings: string[]): DemandRatchet | null {
  const percent = statedNumber(r.lookbackpercent, 'lookbackpercent', warnings);
  if (percent === null || percent <= 0) return null;
  const m = r.lookbackmonths;
  const months = Array.isArray(m) && m.length === 12 && m.every((v) => typeof v === 'boolean') ? [...m] : null;
  return { percent, months, rangeMonths: statedNumber(r.lookbackrange, 'lookbackrange', warnings) ?? 0 };
}

/** Applicability limits as published; a limit that is absent (or not a number, or a blank text) is null. */
export function applicabilityOf(r: UrdbRecord): TariffApplicability {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return {
    demandKwMin: num(r.peakkwcapacitymin),
    demandKwMax: num(r.peakkwcapacitymax),
    usageKwhMin: num(r.peakkwhusagemin),
    usageKwhMax: num(r.peakkwhusagemax),
    voltageCategory: str(r.voltagecategory),
    phaseWiring: str(r.phasewiring),
  };
}

function frequencyOf(units: string | undefined, what: string, warnings: string[]): ChargeFrequency {
  if (units === undefined) {
    warnings.push(`${what} has no units; taken as $/month`);
    return 'monthly';
  }
  const f = FREQUENCIES[units];
  if (!f) throw new UrdbRecordError(`${what} has unknown units "${units}"`);
  return f;
}

function fixedChargesOf(r: UrdbRecord, warnings: string[]): FixedCharge[] {
  const amount = r.fixedchargefirstmeter;
  if (amount === undefined || amount === 0) return [];
  if (!Number.isFinite(amount)) throw new UrdbRecordError('fixedchargefirstmeter is not a number');
  const frequency = frequencyOf(r.fixedchargeunits, 'fixedchargefirstmeter', warnings);
  return [{ name: 'Fixed customer charge', amount, frequency }];
}

function additionalMeterChargeOf(r: UrdbRecord, warnings: string[]): TariffStructure['additionalMeterCharge'] {
  const amount = statedNumber(r.fixedchargeeaaddl, 'fixedchargeeaaddl', warnings);
  if (amount === null || amount === 0) return null;
  return { amount, frequency: frequencyOf(r.fixedchargeunits, 'fixedchargeeaaddl', warnings) };
}

function minimumOf(r: UrdbRecord, warnings: string[]): MinimumCharge | null {
  if (r.mincharge === undefined || r.mincharge === 0) return null;
  if (!Number.isFinite(r.mincharge)) throw new UrdbRecordError('mincharge is not a number');
  return { amount: r.mincharge, frequency: frequencyOf(r.minchargeunits, 'mincharge', warnings) };
}

function fuelAdjustmentsOf(r: UrdbRecord): number[] | null {
  const f = r.fueladjustmentsmonthly;
  if (f === undefined) return null;
  if (!Array.isArray(f) || f.length !== 12 || f.some((v) => !Number.isFinite(v))) {
    throw new UrdbRecordError('fueladjustmentsmonthly is not 12 numbers');
  }
  return [...f];
}

function dgRulesOf(r: UrdbRecord, warnings: string[]): DgRules | null {
  if (r.dgrules === undefined) return null;
  if (DG_RULES.includes(r.dgrules as DgRules)) return r.dgrules as DgRules;
  warnings.push(`unknown dgrules "${r.dgrules}" not kept`);
  return null;
}

/** Applicability limits of the record, as one readable sentence list. */
function eligibilityOf(r: UrdbRecord): string {
  const parts: string[] = [];
  const range = (label: string, unit: string, min?: number, max?: number) => {
    if (min !== undefined && max !== undefined) parts.push(`${label} ${min}-${max} ${unit}`);
    else if (min !== undefined) parts.push(`${label} at least ${min} ${unit}`);
    else if (max !== undefined) parts.push(`${label} at most ${max} ${unit}`);
  };
  range('Peak demand', 'kW', r.peakkwcapacitymin, r.peakkwcapacitymax);
  range('Monthly energy', 'kWh', r.peakkwhusagemin, r.peakkwhusagemax);
  range('Service voltage', 'V', r.voltageminimum, r.voltagemaximum);
  if (r.voltagecategory) parts.push(`Voltage category: ${r.voltagecategory}`);
  if (r.phasewiring) parts.push(`Phase wiring: ${r.phasewiring}`);
  if (r.servicetype) parts.push(`Service type: ${r.servicetype}`);
  return parts.length ? `${parts.join('. ')}.` : '';
}

const text = (s: string | undefined) => (s ?? '').replace(/\r\n?/g, '\n').trim();
/** A published text field, or undefined when absent or not a string. */
const publishedText = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** What the tariff classifier reads of a record (tariff-class.ts). */
export function classInputOf(record: UrdbRecord): ClassInput {
  return {
    utilityId: String(record.eiaid),
    sector: String(record.sector ?? ''),
    name: text(record.name),
    servicetype: publishedText(record.servicetype),
    voltagecategory: publishedText(record.voltagecategory),
    description: publishedText(record.description),
    comments: [record.basicinformationcomments, record.energycomments].map(publishedText).filter(Boolean).join('\n'),
    energyAdjusted: (record.energyratestructure ?? []).some(
      (p) => Array.isArray(p) && p.some((t) => typeof t?.adj === 'number' && t.adj !== 0),
    ),
  };
}

/**
 * One URDB record to the tariff model. Pure: no I/O. A record the model cannot
 * hold as published is rejected with the reason; every rule applied to an
 * upstream quirk is listed in `warnings`.
 */
export function normalizeUrdbRecord(record: UrdbRecord, utility: UtilityInfo): NormalizeResult {
  const warnings: string[] = [];
  try {
    if (typeof record.label !== 'string' || !/^[0-9a-f]{24}$/.test(record.label))
      throw new UrdbRecordError('label is not a 24-hex URDB id');
    if (!Number.isInteger(record.eiaid)) throw new UrdbRecordError('eiaid is not an integer');
    const sector = String(record.sector ?? '').toLowerCase() as Sector;
    if (!SECTORS.includes(sector)) throw new UrdbRecordError(`sector "${record.sector}" is not one of ${SECTORS.join(', ')}`);
    const structure: TariffStructure = {
      energy: energyOf(record, warnings),
      demandTou: demandTouOf(record, warnings),
      demandFlat: demandFlatOf(record, warnings),
      fixedCharges: fixedChargesOf(record, warnings),
      minimumCharge: minimumOf(record, warnings),
      fuelAdjustmentsMonthly: fuelAdjustmentsOf(record),
      dgRules: dgRulesOf(record, warnings),
      realTime: false,
      demandCoincident: demandCoincidentOf(record, warnings),
      additionalMeterCharge: additionalMeterChargeOf(record, warnings),
      reactivePowerCharge: statedNumber(record.demandreactivepowercharge, 'demandreactivepowercharge', warnings) || null,
      demandRatchet: demandRatchetOf(record, warnings),
      ...demandWindowOf(record, warnings),
    };
    if (chargesNothing(structure)) {
      throw new UrdbRecordError('record has no energy, demand or fixed charges');
    }
    const revisions = (record.revisions ?? []).filter((v) => Number.isFinite(v));
    const lastUpdated = revisions.length ? new Date(Math.max(...revisions) * 1000) : utility.importedAt;
    const name = text(record.name);
    const utilityId = String(record.eiaid);
    const tariffClass = classifyTariff(classInputOf(record));
    const tariff: Tariff = {
      id: record.label,
      name,
      utilityId,
      utilityName: utility.name ?? text(record.utility),
      state: utility.state,
      sector,
      ...classify(structure),
      effectiveDate: record.startdate !== undefined ? utcDate(record.startdate) : null,
      expirationDate: record.enddate !== undefined ? utcDate(record.enddate) : null,
      description: text(record.description),
      eligibility: eligibilityOf(record),
      applicability: applicabilityOf(record),
      serviceType: tariffClass.serviceType,
      voltage: tariffClass.voltage,
      purpose: tariffClass.purpose,
      classNote: tariffClass.note,
      sourceUrl: record.uri,
      lastUpdated: lastUpdated.toISOString(),
      structure,
    };
    return { ok: true, tariff, warnings };
  } catch (err) {
    if (err instanceof UrdbRecordError) return { ok: false, reason: err.message };
    throw err;
  }
}
