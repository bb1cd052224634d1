import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/paths';
import { REFERENCE_DIR } from '../utilities/reference';
import { readUrdbLines } from './bundled';
import { classifyTariff, closedToNewCustomers, demandLimitsNamed, type ClassInput } from './tariff-class';
import { classInputOf } from './urdb.normalize';

interface Labelled {
  label: string;
  name: string;
  service_type: string;
  voltage: string | null;
  purpose: string;
  note: string;
}

const labelled = JSON.parse(
  fs.readFileSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'tariff-classes.labelled.json'), 'utf8'),
) as Labelled[];

describe('tariff classes on the hand-labelled set of real URDB records', () => {
  const records = new Map(readUrdbLines(REFERENCE_DIR, new Set(labelled.map((l) => l.label))).map((l) => [l.record!.label, l.record!]));

  it('holds at least 200 distinct real records', () => {
    expect(new Set(labelled.map((l) => l.label)).size).toBe(labelled.length);
    expect(labelled.length).toBeGreaterThanOrEqual(200);
    expect(records.size).toBe(labelled.length);
  });

  it('agrees with every label (service type, voltage, purpose)', () => {
    const disagreements = labelled.flatMap((l) => {
      const c = classifyTariff(classInputOf(records.get(l.label)!));
      const got = { service_type: c.serviceType, voltage: c.voltage, purpose: c.purpose };
      const want = { service_type: l.service_type, voltage: l.voltage, purpose: l.purpose };
      return JSON.stringify(got) === JSON.stringify(want)
        ? []
        : [`${l.label} ${l.name}: got ${JSON.stringify(got)}, labelled ${JSON.stringify(want)}`];
    });
    expect(disagreements).toEqual([]);
  });
});

describe('classifyTariff: the cases users saw (issue "Answers a utility would agree with")', () => {
  const cls = (input: Partial<ClassInput> & { name: string }) => classifyTariff({ utilityId: '1', sector: 'Commercial', ...input });

  it.each([
    ['TC-1 Traffic Control Service', 'traffic_signals'],
    ['Secondary Standby Service', 'standby'],
    ['UC-10 Unmetered Communication', 'unmetered'],
    ['Net Metering Rider', 'rider'],
    ['Small General Net Metering Service', 'distributed_generation'],
    ['Grain Drying - Three Phase', 'agricultural'],
    ['Residential and Farm Service', 'general'],
    ['Athletic Field Electric- Option A', 'lighting'],
    ['Power and Light- Small', 'general'],
    ['Non-Interruptible General Service', 'general'],
    ['Residential General Use and Space Heat- One Meter', 'general'],
    ['Off-Peak/Heat storage from 10pm-6am Small Commercial', 'space_water_heating'],
    // issue 45 fourth new-user pass (Boise): a cost adjustment is billed on top of a rate schedule, never one of its own
    ['Schedule 54 - Fixed Cost Adjustment - Small General Service', 'rider'],
    ['Power Cost Adjustment', 'rider'],
  ])('%s is %s', (name, purpose) => {
    expect(cls({ name }).purpose).toBe(purpose);
  });

  it('a ComEd "(Unbundled)" class is delivery only; BES (basic electric service) with standard offer is bundled', () => {
    expect(cls({ utilityId: '4110', name: 'BESH-Small Load Delivery Class (Unbundled)' }).serviceType).toBe('delivery_only');
    expect(
      cls({ utilityId: '4110', name: 'BES-Small Load Delivery Class (Secondary)', servicetype: 'Delivery with Standard Offer' })
        .serviceType,
    ).toBe('bundled');
  });

  it('a description saying the rates leave generation out is delivery only (issue 45, third new-user pass)', () => {
    // Westfield Electric (WI), General Power #E25/26; Northeastern REMC (IN), Schedule 50-3
    expect(
      cls({ name: 'General Power #E25/26', description: 'This rate does not include any charges associated with generation.' }).serviceType,
    ).toBe('delivery_only');
    expect(
      cls({
        name: 'SCHEDULE 50-3 ALTERNATIVE COINCIDENT PEAK CAPACITY POWER SERVICE(Secondary Voltage)',
        description: 'Rate for distribution only. Supply charges depend on monthly wholesale price.',
      }).serviceType,
    ).toBe('delivery_only');
    // a list of the rules billed beside the rate names supply without saying the rate leaves it out (Niagara Mohawk SC1 of 2014)
    expect(
      cls({ name: 'SC1- Zone A', description: 'Customers ... may be subject to adjustments ...\n*Rule 46 - Supply Service Charges' })
        .serviceType,
    ).toBe('bundled');
  });

  it('every tariff of a Texas competitive-market distribution utility is delivery only', () => {
    expect(cls({ utilityId: '8901', name: 'SmalL Non-Residential LSP POLR(Less Than 10KW-No Demand Meter)' }).serviceType).toBe(
      'delivery_only',
    );
  });

  it('the name states the voltage; a rate offered at several is open at the lowest; the category is the fallback', () => {
    expect(cls({ name: 'Large Power - Primary and Secondary' }).voltage).toBe('secondary');
    expect(cls({ name: 'GS-1 TOU C (50 kV - 220 kV)', voltagecategory: 'Secondary' }).voltage).toBe('transmission');
    expect(cls({ name: 'Large General Service', voltagecategory: 'Primary' }).voltage).toBe('primary');
    expect(cls({ name: 'Large General Service' }).voltage).toBeNull();
  });

  it('an unknown published value is never an error: a note says what was assumed', () => {
    const c = cls({ name: 'General Service', servicetype: 'Wholesale Wheeling', voltagecategory: 'Medium' });
    expect(c).toEqual({
      serviceType: 'bundled',
      voltage: null,
      purpose: 'general',
      note: 'Tariff class: service type "Wholesale Wheeling" is not one URDB defines; taken as bundled; voltage category "Medium" is not one URDB defines; taken as unknown.',
    });
  });
});

describe('closedToNewCustomers', () => {
  it.each([
    ['Water Well-Secondary (CLOSED)', true],
    ['GS-1 General Service Non-Demand Single Phase; Closed Rate', true],
    ['Commercial Standard Cg-2 [CLOSED Rate]', true],
    ['Enclosed Arena Service', false],
    ['General Service', false],
  ])('%s: %s', (name, closed) => {
    expect(closedToNewCustomers(name)).toBe(closed);
  });
});

describe("demandLimitsNamed: the kW limits a schedule's name states", () => {
  it.each([
    ['SmalL Non-Residential LSP POLR(Less Than 10KW-No Demand Meter)', { min: null, max: 10 }],
    ['COMMERCIAL (Over 40 kW Demand) - CITY', { min: 40, max: null }],
    ['General Power Rates(greater than 1000kW)', { min: 1000, max: null }],
    ['Residential Single-Phase (100 kW and Under)', { min: null, max: 100 }],
    ['Rate 4- School and Government- Annual Peak Demand Greater Than 1,000 KW', { min: 1000, max: null }],
    ['Schedule 36 (Large General Service Less than 1000 kW)(101-300 kW)', { min: 101, max: 300 }],
    ['General Power Rate (GSA2) (Greater than 50 kW up to 1,000 kW or Greater than 15,000 kWh)', { min: 50, max: 1000 }],
    ['General Service < 50 kW', { min: null, max: 50 }],
    ['Multi-Phase Farm - Up to 149 kVA', { min: null, max: null }],
    ['General Service', { min: null, max: null }],
  ])('%s', (name, limits) => {
    expect(demandLimitsNamed(name)).toEqual(limits);
  });
});
