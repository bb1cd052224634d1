import { loadUtilityReference, REFERENCE_DIR } from '../utilities/reference';
import { normalizeBundle, readUrdbLines } from './bundled';
import { customerTraits, eligibilityOf, phaseOf, readApplicability, type EligibilityCustomer, type EligibilityTariff } from './eligibility';
import type { Tariff } from './tariff.model';
import { evaluate } from '../../../test/fixtures/eligibility/evaluate';

/** An ordinary commercial customer: a 110 kW apartment building's house meter in Michigan, bundled, secondary. */
const houseMeter: EligibilityCustomer = {
  state: 'MI',
  sectors: ['commercial'],
  dwelling: false,
  serviceType: 'bundled',
  voltage: 'secondary',
  voltageAssumed: true,
  purpose: 'general',
  currentRestrictions: new Set(),
  phase: null,
  usageKwh: 40_000,
  demandKw: 110,
};

const general: EligibilityTariff = {
  name: 'General Service',
  description: '',
  state: 'MI',
  sector: 'commercial',
  serviceType: 'bundled',
  voltage: null,
  purpose: 'general',
  applicability: { demandKwMin: null, demandKwMax: null, usageKwhMin: null, usageKwhMax: null, phaseWiring: null },
};
const withText = (name: string, description = '', over: Partial<EligibilityTariff> = {}): EligibilityTariff => ({
  ...general,
  name,
  description,
  ...over,
});

describe('eligibility on DTE records a Detroit house meter was offered (issue 45)', () => {
  let dte: Map<string, Tariff>;
  beforeAll(() => {
    const labels = ['5b9034245457a3ce6cfe082c', '5b9030a55457a38a68fe082e', '5b86cbcb5457a3311b8b4568', '5d95018e5457a3912e61b9f1'];
    const bundle = normalizeBundle(
      readUrdbLines(REFERENCE_DIR, new Set(labels)),
      loadUtilityReference(REFERENCE_DIR),
      new Date('2026-11-28T00:00:00Z'),
    );
    dte = new Map(bundle.tariffs.map((t) => [t.name, t]));
  });
  const onD3 = () => ({ ...houseMeter, ...customerTraits(dte.get('General Service D3 (Full Service)')!), serviceType: 'bundled' as const });

  it('a retail-access schools rate is neither the right service type nor open to an apartment building', () => {
    const retail = dte.get('Secondary Educational Institution D3.2 (Retail Service)')!;
    expect(retail.serviceType).toBe('delivery_only');
    expect(eligibilityOf(retail, onD3())).toEqual({
      status: 'excluded',
      reason: "service type delivery_only: the property's service is bundled",
    });
    const full = dte.get('Secondary Educational Institution D3.2 (Full Service)')!;
    expect(eligibilityOf(full, onD3())).toEqual({
      status: 'excluded',
      reason: 'limited to a kind of customer (institution): "Educational" in its name',
    });
  });

  it('a geothermal rate the description opens to residential customers only is not recommended', () => {
    const verdict = eligibilityOf(dte.get('Geothermal Time of Day Rate Full Service Commercial')!, onD3());
    expect(verdict).toEqual({ status: 'excluded', reason: 'limited to equipment the property would need: "Geothermal" in its name' });
  });
});

describe('readApplicability and eligibilityOf: the written rules, one example each', () => {
  it.each([
    [
      'a general rate open to all',
      withText('General Service', 'Available to all commercial customers for all uses.'),
      { status: 'eligible' },
    ],
    [
      'schools named as the customers',
      withText('Commercial Service', 'Available only to public schools.'),
      { status: 'excluded', reason: 'limited to a kind of customer (institution): "public schools" in its description' },
    ],
    [
      'a list that opens the rate to schools among others',
      withText('General Service', 'Available to commercial, industrial, churches and schools for all uses.'),
      { status: 'eligible' },
    ],
    [
      'excluding clauses restrict nobody',
      withText('General Service', 'Available to all customers. Not available for resale, standby or auxiliary service.'),
      { status: 'eligible' },
    ],
    [
      'closed to new customers in the text',
      withText('General Service', 'Available only to existing customers served under this rate on June 1, 1998.'),
      { status: 'excluded', reason: 'closed to new customers ("only to existing customers")' },
    ],
    [
      'a pilot in the availability text',
      withText('General Service TOU', 'Available as a pilot to the first 500 customers who apply.'),
      { status: 'excluded', reason: 'limited to a program (pilot, limited enrolment, incentive): "pilot" in its description' },
    ],
    [
      'a pilot mentioned elsewhere',
      withText('General Service TOU', 'This rate is offered as a pilot.'),
      { status: 'needs_review', reason: 'may be limited to a program (pilot, limited enrolment, incentive): "pilot" in its description' },
    ],
    [
      'several accounts',
      withText('General Service Aggregated', 'Available to customers with two or more accounts at contiguous premises.'),
      { status: 'excluded', reason: 'limited to several accounts or locations: "two or more accounts" in its description' },
    ],
    [
      'own generation',
      withText('General Service', 'Available to customers with on-site generation of 25 kW or more.'),
      { status: 'excluded', reason: 'limited to own generation or standby service: "on-site generation" in its description' },
    ],
    [
      'primary service stated in the text when the class has no voltage',
      withText('Large Power', 'Available to customers taking service at primary voltage.'),
      {
        status: 'excluded',
        reason:
          'service at primary voltage (its description says so): the property takes service at secondary (assumed: the current tariff does not say)',
      },
    ],
    [
      'a kV the service is taken at',
      withText('Large Power', 'Applicable to service delivered at nominally 33 kV.'),
      {
        status: 'excluded',
        reason:
          'service at primary voltage (its description says so): the property takes service at secondary (assumed: the current tariff does not say)',
      },
    ],
    [
      'a kW limit in the text',
      withText('Small General Service', 'Available to customers with demands of less than 50 kW.'),
      {
        status: 'excluded',
        reason: "peak demand 110 kW is above the tariff's maximum of 50 kW (the limit its name or description states)",
      },
    ],
    [
      'a load factor the customer does not reach',
      withText('General Service High Load Factor', 'Available to customers with a load factor of at least 60%.'),
      { status: 'excluded', reason: "load factor 49.813 % (usage / (peak x 730 h)) is below the tariff's minimum of 60 %" },
    ],
    [
      'single-phase service for a 110 kW building',
      withText('Small Commercial Single Phase'),
      {
        status: 'excluded',
        reason: 'single-phase service only: a 110 kW demand takes three-phase service (single-phase is limited to about 50 kVA)',
      },
    ],
    [
      'a condition the rules do not read',
      withText('General Service', 'Applicable only to manufacturing, processing and production plants.'),
      { status: 'excluded', reason: 'limited to a kind of customer (institution): "manufacturing" in its description' },
    ],
    [
      'a condition no rule names',
      withText('General Service', 'Available only where the customer has signed a cooperation plan with the city.'),
      {
        status: 'needs_review',
        reason:
          'its availability text sets a condition the eligibility rules do not read: "Available only where the customer has signed a cooperation plan with the city."',
      },
    ],
    [
      'a name word no rule reads',
      withText('General Service Restricted'),
      { status: 'needs_review', reason: 'its name has words the eligibility rules do not read: "Restricted"' },
    ],
    [
      'nothing says it is a general rate',
      withText('Rate 4'),
      { status: 'needs_review', reason: 'nothing in its name or description says it is a general-service rate' },
    ],
    [
      'a rate for one named customer',
      withText('Large Power', 'This rate is applicable to electric service for Tower Metal Products L.P.'),
      { status: 'excluded', reason: 'limited to one named customer or contract: "Tower Metal Products L.P." in its description' },
    ],
    [
      'volts above 600 in the name outrank a published secondary',
      withText('DS-2 Small General Service (Over 600 Volt)', '', { voltage: 'secondary' }),
      {
        status: 'excluded',
        reason:
          'service at primary voltage (its name says so): the property takes service at secondary (assumed: the current tariff does not say)',
      },
    ],
  ] as const)('%s', (_what, tariff, verdict) => {
    expect(eligibilityOf(tariff, houseMeter)).toEqual(verdict);
  });

  it('a one-meter dwelling rate is no rate for a multifamily common-area meter, but is for a home', () => {
    const dwellingRate = withText('Residential Service', 'Available for single-family dwellings through one meter.', {
      sector: 'residential',
    });
    const masterMetered = { ...houseMeter, sectors: ['residential'], usageKwh: 900, demandKw: null };
    expect(eligibilityOf(dwellingRate, masterMetered)).toEqual({
      status: 'excluded',
      reason: 'limited to an individually metered dwelling: "single-family" in its description',
    });
    expect(eligibilityOf(dwellingRate, { ...masterMetered, dwelling: true })).toEqual({ status: 'eligible' });
  });

  it('a customer whose current tariff carries the same condition gets the tariff for review, not excluded', () => {
    const heat = withText('Commercial Space Heating');
    expect(eligibilityOf(heat, houseMeter).status).toBe('excluded');
    expect(eligibilityOf(heat, { ...houseMeter, currentRestrictions: new Set(['equipment']) })).toEqual({
      status: 'needs_review',
      reason:
        'may be limited to equipment the property would need: "Space Heating" in its name (the current tariff has a condition of the same kind)',
    });
  });

  it('reads a published "Single Phase" that the rate\'s own figures contradict as no limit', () => {
    const reading = readApplicability({ name: 'General Power Rate GSA 3 (1,001-5,000 kW)', description: '' });
    expect(reading.limits.kwMin).toBe(1001);
    const gsa3 = withText('General Power Rate GSA 3 (1,001-5,000 kW)', '', {
      applicability: { ...general.applicability!, phaseWiring: 'Single Phase' },
    });
    expect(eligibilityOf(gsa3, { ...houseMeter, demandKw: 2000, usageKwh: 800_000 })).toEqual({ status: 'eligible' });
  });
});

describe('a published "Single Phase" that the published demand limits contradict (issue 45, third new-user pass)', () => {
  const published = (demandKwMin: number | null, demandKwMax: number | null) => ({
    applicability: { ...general.applicability!, demandKwMin, demandKwMax, phaseWiring: 'Single Phase' },
  });

  it("Hawaiian Electric's Schedule J (25 to 300 kW, name silent on phase) and Schedule P (from 300 kW) are no single-phase rates", () => {
    const j = withText('Schedule J - General Service Demand', '', published(25, 300));
    expect(eligibilityOf(j, houseMeter)).toEqual({ status: 'eligible' });
    const p = withText('Schedule P - Large Power Service', '', published(300, null));
    expect(phaseOf('Single Phase', readApplicability(p).limits, p.applicability)).toBeNull();
  });

  it('a name that says single-phase keeps the limit, however large (Traverse Electric\'s "Large Single Phase", 100 to 500 kW)', () => {
    const large = withText('Large Single Phase', '', published(100, 500));
    expect(phaseOf('Single Phase', readApplicability(large).limits, large.applicability)).toBe('single');
    // and up to 100 kW a published single phase stands (PPL's GS-1, to 100 kW)
    const small = withText('GS-1 (Small General Service)', '', published(null, 100));
    expect(phaseOf('Single Phase', readApplicability(small).limits, small.applicability)).toBe('single');
  });
});

describe('the classes a new-user pass in ten more metros found (issue 45)', () => {
  it("a charge marked frozen closes the charge, not the rate (Kansas City Power & Light's MGS)", () => {
    const mgs = withText(
      'Medium General Service -Schedule MGS (200-999kW) Secondary',
      'Additional Meter Charge (FROZEN) can be added to those customers who have additional meters. The additional fee is $2.22.',
    );
    expect(eligibilityOf(mgs, { ...houseMeter, demandKw: 208, usageKwh: 76_000 })).toEqual({ status: 'eligible' });
    // the rate itself frozen still is closed
    expect(eligibilityOf(withText('General Service', 'This schedule is frozen to new customers.'), houseMeter)).toEqual({
      status: 'excluded',
      reason: 'closed to new customers ("frozen")',
    });
  });

  it('a critical-peak-pricing option is a program, not a general rate (OG&E GS-CPP)', () => {
    const cpp = withText(
      'GS-CPP General Service Time-of-Use with CPP',
      'AVAILABILITY: This tariff is limited to customers currently taking service under any of the GS, PS-ND, OGP-ND, or PM tariffs.',
    );
    expect(eligibilityOf(cpp, houseMeter)).toEqual({
      status: 'excluded',
      reason: 'limited to a program (pilot, limited enrolment, incentive): "CPP" in its name',
    });
    // "currently taking service under" other schedules is a condition to read, not an open door
    expect(readApplicability({ name: 'General Service TOU', description: cpp.description }).unreadCondition).toMatch(
      /currently taking service under/,
    );
  });

  it('a kWh limit "in any one of the prior twelve billing periods" is a monthly limit (Tampa Electric GS)', () => {
    const gs = withText(
      'Schedule GS General Service-Non Demand-Metered accounts',
      'Applicable for lighting and power in establishments not ' +
        'classified as residential whose energy consumption has not exceeded 9000kWh in any one of the prior twelve(12) consecutive billing periods.',
    );
    expect(eligibilityOf(gs, { ...houseMeter, usageKwh: 45_000 })).toEqual({
      status: 'excluded',
      reason: "monthly usage 45000 kWh is above the tariff's maximum of 9000 kWh",
    });
  });

  it('a program for customer generators is own generation (PacifiCorp Utah Schedule 6 transition program)', () => {
    const transition = withText('Schelule 6 (General Service - Distribution Voltage) [Transition Program for Customer Generators]');
    expect(eligibilityOf(transition, houseMeter)).toEqual({
      status: 'excluded',
      reason: 'limited to own generation or standby service: "Customer Generators" in its name',
    });
  });
});

describe('the classes a second new-user pass found (issue 45)', () => {
  it('"Greater than or equal to 25 kW" is a kW minimum, and "equal" no unread word (Duquesne Light GM)', () => {
    const gm = withText(
      'GM - General Service Medium (Greater than or equal to 25 kW)',
      'Rider No. 2 - Untransformed Service discount may apply.',
    );
    expect(readApplicability(gm).limits.kwMin).toBe(25);
    expect(eligibilityOf(gm, houseMeter)).toEqual({ status: 'eligible' });
    expect(eligibilityOf(gm, { ...houseMeter, demandKw: 20, usageKwh: 5_000 })).toEqual({
      status: 'excluded',
      reason: "peak demand 20 kW is below the tariff's minimum of 25 kW (the limit its name or description states)",
    });
  });

  it('a list of residences, apartments and farms opens a home rate to all of them (Green Mountain Power Rate 01)', () => {
    const rate01 = withText(
      'Rate 01 Residential Service',
      'Available for residential service to private residences, individual apartments, and farms.',
      { sector: 'residential' },
    );
    expect(eligibilityOf(rate01, { ...houseMeter, sectors: ['residential'], dwelling: true, usageKwh: 700, demandKw: null })).toEqual({
      status: 'eligible',
    });
  });

  it('a rate for companies furnishing cable television is a special use (Green Mountain Power Rate 15)', () => {
    const cable = withText(
      'Rate 15: Cable Television Rate',
      'Service under this rate is available for all companies, partnerships, or individuals ' +
        'furnishing cable television service over coaxial cables attached to poles by one or more public utilities.',
    );
    expect(eligibilityOf(cable, houseMeter)).toEqual({
      status: 'excluded',
      reason: 'limited to a special use: "Cable Television" in its name',
    });
    expect(eligibilityOf({ ...cable, name: 'Rate 15' }, houseMeter)).toEqual({
      status: 'excluded',
      reason: 'limited to a special use: "cable television" in its description',
    });
  });
});

describe('precision of "recommended" on hand-labelled records never tuned on (test/fixtures/eligibility)', () => {
  // The fifth draw (fresh4, 319 current records over 48 states), labelled by readers who had not read the rules;
  // the rules were tuned on the four earlier draws only. Figures in data/reference/README.md, "Who may take a tariff".
  it('recommends a tariff a customer could not take less than 1 % of the time, and says its recall', () => {
    const m = evaluate('fresh4');
    expect({ records: m.records, open: m.open, recommended: m.recommended, truePositives: m.truePositives })
      // Issue 45's second new-user pass (lists of residences and apartments open a rate, ">= 25 kW" limits, equal as a
      // name word) added one open record to the recommended, 153 of 154 before.
      .toEqual({ records: 319, open: 223, recommended: 155, truePositives: 154 });
    expect(m.precision).toBeGreaterThanOrEqual(0.99);
    expect(Math.round(m.recall * 1000) / 10).toBe(69.1);
  });

  it('holds on the tuning draws too (1,598 records)', () => {
    for (const half of ['tune', 'holdout', 'fresh', 'fresh2', 'fresh3'] as const)
      expect(evaluate(half).precision).toBeGreaterThanOrEqual(0.99);
  });
});
