/**
 * What a tariff's own applicability text says about who may take it, read by the written rules of
 * data/reference/README.md ("Who may take a tariff"). Pure: no I/O.
 *
 * The class (tariff-class.ts) reads the name for purpose, service type and voltage. This module reads
 * the name *and the description* for the rest of what a utility's "Availability" / "Applicability"
 * paragraph states: kinds of customer (schools, churches, government, farms), equipment (heat pumps,
 * electric heat, EVs, storage), own generation, several accounts, programs (pilot, limited
 * enrolment), closed schedules, service voltage and phase, and kW, kWh and load-factor limits. It
 * also says whether anything *positively* shows the rate is a general-service rate: a tariff is only
 * recommended on evidence, never by default.
 *
 * Clauses that exclude ("not available for resale, standby or auxiliary service", "except schools")
 * are removed before the restriction words are looked for: they restrict nobody who asks for the
 * ordinary rate.
 */
import { closedToNewCustomers, VOLTAGE_RANK, type Purpose, type ServiceType, type Voltage } from './tariff-class';
import type { ApplicabilityLimits } from './tariff.model';
import { readApplicability, type ApplicabilityReading, type RestrictionKind, type StatedLimits } from './applicability-text';

export {
  readApplicability,
  type ApplicabilityReading,
  type Restriction,
  type RestrictionKind,
  type StatedLimits,
} from './applicability-text';

/** Who asks to move to a tariff (or to be priced on it): what the verdict holds the tariff against. */
export interface EligibilityCustomer {
  /** The state of the property (its ZIP code's); null when unknown. */
  state: string | null;
  /** Sectors the customer is in: a home `residential`; a business, or an apartment building's house meter, `commercial`. */
  sectors: readonly string[];
  /** A dwelling (one home) or not (a business, a multifamily building's common-area meter). */
  dwelling: boolean;
  serviceType: ServiceType;
  /** The customer's service voltage (secondary when not known: most buildings take it). */
  voltage: Voltage;
  voltageAssumed: boolean;
  /** The special purpose of the current tariff (a customer already on an EV rate may compare EV rates). */
  purpose: Purpose;
  /** Restriction kinds the current tariff itself carries: the customer may meet them, a reader should check. */
  currentRestrictions: ReadonlySet<RestrictionKind>;
  /** The location the current tariff's name states ("non-city"), lower case; a tariff naming the same one is no restriction. */
  currentLocation?: string | null;
  /** Service phase, where the current tariff states it (a single-phase or three-phase rate); null when unknown. */
  phase: 'single' | 'three' | null;
  usageKwh: number;
  demandKw: number | null;
}

export type EligibilityVerdict =
  { status: 'eligible' } | { status: 'needs_review'; reason: string } | { status: 'excluded'; reason: string };

/** The tariff as the verdict reads it. */
export interface EligibilityTariff {
  name: string;
  utilityName?: string;
  description: string;
  state: string | null;
  sector: string;
  serviceType: ServiceType;
  voltage: Voltage | null;
  purpose: Purpose;
  applicability: (ApplicabilityLimits & { phaseWiring?: string | null }) | null;
}

/** Hours in an average month (8,760 / 12): monthly kWh / 730 is the average demand, a floor for the peak. */
const HOURS_PER_MONTH = 730;
/**
 * Single-phase service is limited by the transformer a utility will set for it: co-operatives and
 * municipal utilities commonly cap it at 50 kVA ("not more than 50 kVa of transformer capacity",
 * Arkansas Valley Electric Co-op's Small Commercial Service - Single Phase). A building whose peak is
 * above 50 kW takes three-phase service.
 */
const SINGLE_PHASE_MAX_KW = 50;

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);

const KIND_WORDS: Record<RestrictionKind, string> = {
  institution: 'a kind of customer (institution)',
  agriculture: 'agricultural or irrigation use',
  equipment: 'equipment the property would need',
  generation: 'own generation or standby service',
  multi_account: 'several accounts or locations',
  program: 'a program (pilot, limited enrolment, incentive)',
  closed: 'closed to new customers',
  special_use: 'a special use',
  location: 'a named location',
  dwelling: 'an individually metered dwelling',
  not_a_rate: 'a rider or adjustment, not a rate of its own',
  single_customer: 'one named customer or contract',
};

/**
 * A rate whose published demand limits reach past twice what single-phase service carries (above 100 kW: Hawaiian
 * Electric's Schedule J, 25 to 300 kW) is not a single-phase rate unless its name or text says so.
 */
const SINGLE_PHASE_CONTRADICTING_MAX_KW = 2 * SINGLE_PHASE_MAX_KW;

/** The phase a tariff is limited to: URDB's published wiring, else what its name and availability text state. */
export function phaseOf(
  phaseWiring: string | null,
  stated: StatedLimits,
  published: { demandKwMin: number | null; demandKwMax: number | null } | null = null,
): 'single' | 'three' | null {
  // A published "Single Phase" that the rate's own figures contradict (a minimum demand above what single-phase
  // service carries; a text naming three-phase service) is not a limit. Published limits contradict it only where
  // neither name nor text says single-phase (a published minimum above 50 kW, a maximum above 100 kW): rural
  // utilities do sell large single-phase service under names that say so (Traverse Electric's "Large Single Phase").
  const silent = stated.phase !== 'single';
  const contradicted =
    stated.phase === 'three' ||
    (stated.kwMin !== null && stated.kwMin > SINGLE_PHASE_MAX_KW) ||
    stated.mentionsThreePhase ||
    (silent && ((published?.demandKwMin ?? 0) > SINGLE_PHASE_MAX_KW || (published?.demandKwMax ?? 0) > SINGLE_PHASE_CONTRADICTING_MAX_KW));
  if (phaseWiring && /single/i.test(phaseWiring) && !/3|three/i.test(phaseWiring)) return contradicted ? null : 'single';
  if (phaseWiring && /3|three/i.test(phaseWiring) && !/single/i.test(phaseWiring)) return 'three';
  return stated.phase;
}

/** Why a size limit excludes the customer, or null when it admits it (or cannot be checked: see `unchecked`). */
function sizeVerdict(t: EligibilityTariff, reading: ApplicabilityReading, c: EligibilityCustomer): EligibilityVerdict | null {
  const published = t.applicability;
  const stated = reading.limits;
  const hasPublishedKw = published !== null && (published.demandKwMin !== null || published.demandKwMax !== null);
  const kwMin = hasPublishedKw ? published!.demandKwMin : stated.kwMin;
  const kwMax = hasPublishedKw ? published!.demandKwMax : stated.kwMax;
  const kwhMin = published?.usageKwhMin ?? stated.kwhMin;
  const kwhMax = published?.usageKwhMax ?? stated.kwhMax;
  const whose = hasPublishedKw ? '' : ' (the limit its name or description states)';
  const average = c.usageKwh / HOURS_PER_MONTH;
  if (c.demandKw !== null) {
    if (kwMin !== null && c.demandKw < kwMin)
      return { status: 'excluded', reason: `peak demand ${fmt(c.demandKw)} kW is below the tariff's minimum of ${fmt(kwMin)} kW${whose}` };
    if (kwMax !== null && c.demandKw > kwMax)
      return { status: 'excluded', reason: `peak demand ${fmt(c.demandKw)} kW is above the tariff's maximum of ${fmt(kwMax)} kW${whose}` };
  } else {
    if (kwMax !== null && average > kwMax) {
      return {
        status: 'excluded',
        reason: `average demand ${fmt(average)} kW (monthly usage / 730 h; the peak is higher) is above the tariff's maximum of ${fmt(kwMax)} kW${whose}`,
      };
    }
    if (kwMin !== null && kwMin > 0) {
      return {
        status: 'needs_review',
        reason: `the tariff requires a peak demand of at least ${fmt(kwMin)} kW${whose} and the property has no demand figure to show it`,
      };
    }
  }
  if (kwhMin !== null && c.usageKwh < kwhMin)
    return { status: 'excluded', reason: `monthly usage ${fmt(c.usageKwh)} kWh is below the tariff's minimum of ${fmt(kwhMin)} kWh` };
  if (kwhMax !== null && c.usageKwh > kwhMax)
    return { status: 'excluded', reason: `monthly usage ${fmt(c.usageKwh)} kWh is above the tariff's maximum of ${fmt(kwhMax)} kWh` };
  if (stated.loadFactorMin !== null) {
    if (c.demandKw === null || c.demandKw <= 0) {
      return {
        status: 'needs_review',
        reason: `the tariff requires a load factor of at least ${fmt(stated.loadFactorMin * 100)} % and the property has no demand figure to compute its own`,
      };
    }
    const loadFactor = c.usageKwh / (c.demandKw * HOURS_PER_MONTH);
    if (loadFactor < stated.loadFactorMin) {
      return {
        status: 'excluded',
        reason: `load factor ${fmt(loadFactor * 100)} % (usage / (peak x 730 h)) is below the tariff's minimum of ${fmt(stated.loadFactorMin * 100)} %`,
      };
    }
  }
  const phase = phaseOf(published?.phaseWiring ?? null, stated, published);
  // The customer's phase: what its current tariff says; else a peak above what single-phase service carries is three-phase.
  const peak = c.demandKw ?? average;
  const customerPhase = c.phase ?? (!c.dwelling && peak > SINGLE_PHASE_MAX_KW ? 'three' : null);
  if (phase === 'single' && customerPhase !== 'single') {
    if (c.phase === 'three')
      return {
        status: 'excluded',
        reason: 'single-phase service only: the property takes three-phase service (its current tariff says so)',
      };
    if (customerPhase === 'three') {
      return {
        status: 'excluded',
        reason: `single-phase service only: a ${fmt(peak)} kW${c.demandKw === null ? ' average' : ''} demand takes three-phase service (single-phase is limited to about ${SINGLE_PHASE_MAX_KW} kVA)`,
      };
    }
    if (!c.dwelling) return { status: 'needs_review', reason: "single-phase service only, and the property's service phase is not known" };
  }
  if (phase === 'three' && customerPhase !== 'three') {
    if (c.phase === 'single')
      return {
        status: 'excluded',
        reason: 'three-phase service only: the property takes single-phase service (its current tariff says so)',
      };
    return {
      status: 'needs_review',
      reason: c.dwelling
        ? 'three-phase service only: homes usually take single-phase service'
        : "three-phase service only, and the property's service phase is not known",
    };
  }
  return null;
}

/**
 * Whether a customer may take a tariff (data/reference/README.md, "Who may take a tariff"):
 * `excluded` when the evidence says it may not, `needs_review` when the evidence is missing or
 * unclear, `eligible` only when everything checked admits it and something shows it is a
 * general-service rate. Class and place first, then the text's restrictions, then size.
 */
export function eligibilityOf(t: EligibilityTariff, c: EligibilityCustomer, reading = readApplicability(t)): EligibilityVerdict {
  if (closedToNewCustomers(t.name)) return { status: 'excluded', reason: "closed to new customers (the schedule's name says so)" };
  if (c.state !== null && t.state !== c.state)
    return { status: 'excluded', reason: `a tariff for ${t.state ?? 'another state'}: the property is in ${c.state}` };
  if (!c.sectors.includes(t.sector)) {
    return {
      status: 'excluded',
      reason: `a ${t.sector} tariff: the ${c.dwelling ? 'home' : 'building'} is a ${c.sectors.join(' or ')} customer`,
    };
  }
  const serviceType = t.serviceType === 'bundled' && reading.retailAccess ? 'delivery_only' : t.serviceType;
  if (serviceType !== c.serviceType) {
    const because =
      serviceType !== t.serviceType ? ` ("${reading.retailAccess}": delivery for customers who buy power from another supplier)` : '';
    return { status: 'excluded', reason: `service type ${serviceType}${because}: the property's service is ${c.serviceType}` };
  }
  if (t.purpose !== 'general' && t.purpose !== c.purpose) {
    return { status: 'excluded', reason: `a special-purpose tariff (${t.purpose}), not a general rate the property could take` };
  }
  const published = t.voltage ?? reading.describedVoltage;
  const voltage =
    reading.namedVoltage && (published === null || VOLTAGE_RANK[published] < VOLTAGE_RANK.primary) ? reading.namedVoltage : published;
  if (voltage !== null && VOLTAGE_RANK[voltage] > VOLTAGE_RANK[c.voltage]) {
    const how = voltage !== t.voltage ? ` (its ${voltage === reading.namedVoltage ? 'name' : 'description'} says so)` : '';
    const assumed = c.voltageAssumed ? ' (assumed: the current tariff does not say)' : '';
    return { status: 'excluded', reason: `service at ${voltage} voltage${how}: the property takes service at ${c.voltage}${assumed}` };
  }
  let review: string | null = null;
  for (const r of reading.restrictions) {
    if (r.kind === 'dwelling' && c.dwelling) continue;
    if (r.kind === 'location' && c.currentLocation && locationWords(r.words) === c.currentLocation) continue;
    if (r.kind === 'closed') return { status: 'excluded', reason: `closed to new customers ("${r.words}")` };
    const where = r.source === 'name' ? 'its name' : 'its description';
    const words = `${KIND_WORDS[r.kind]}: "${r.words}" in ${where}`;
    if (r.source === 'mention' || r.kind === 'location' || c.currentRestrictions.has(r.kind)) {
      const why = c.currentRestrictions.has(r.kind) ? ' (the current tariff has a condition of the same kind)' : '';
      review ??= `may be limited to ${words}${why}`;
      continue;
    }
    return { status: 'excluded', reason: `limited to ${words}` };
  }
  const size = sizeVerdict(t, reading, c);
  if (size?.status === 'excluded') return size;
  if (review) return { status: 'needs_review', reason: review };
  if (size) return size;
  if (reading.unreadCondition) {
    return {
      status: 'needs_review',
      reason: `its availability text sets a condition the eligibility rules do not read: "${reading.unreadCondition}"`,
    };
  }
  if (reading.unreadWords.length > 0) {
    return {
      status: 'needs_review',
      reason: `its name has words the eligibility rules do not read: ${reading.unreadWords.map((w) => `"${w}"`).join(', ')}`,
    };
  }
  if (!reading.generalEvidence && t.purpose === 'general') {
    return { status: 'needs_review', reason: 'nothing in its name or description says it is a general-service rate' };
  }
  return { status: 'eligible' };
}

/** A location's words compared loosely: "Non-City", "non city" and "NonCity" are one. */
const locationWords = (words: string) => words.toLowerCase().replace(/[^a-z]/g, '');

/**
 * The tariff a customer is on, as far as it tells who the customer is (its class, phase and conditions);
 * with none, who any customer without a tariff is taken to be (secondary voltage, assumed; general purpose).
 */
export function customerTraits(current: EligibilityTariff | null): Pick<
  EligibilityCustomer,
  'voltage' | 'voltageAssumed' | 'purpose' | 'currentRestrictions' | 'currentLocation' | 'phase'
> & {
  serviceType: ServiceType | null;
} {
  if (!current)
    return {
      voltage: 'secondary',
      voltageAssumed: true,
      purpose: 'general',
      currentRestrictions: new Set(),
      currentLocation: null,
      phase: null,
      serviceType: null,
    };
  const reading = readApplicability(current);
  const voltage = current.voltage ?? reading.namedVoltage ?? reading.describedVoltage;
  return {
    voltage: voltage ?? 'secondary',
    voltageAssumed: voltage === null,
    purpose: current.purpose,
    currentRestrictions: new Set(reading.restrictions.map((r) => r.kind)),
    currentLocation: ((words) => (words ? locationWords(words) : null))(
      reading.restrictions.find((r) => r.kind === 'location' && r.source === 'name')?.words,
    ),
    phase: phaseOf(current.applicability?.phaseWiring ?? null, reading.limits, current.applicability),
    serviceType: current.serviceType === 'bundled' && reading.retailAccess ? 'delivery_only' : current.serviceType,
  };
}
