/**
 * chargesNamedButMissing on real bundled records (issue 45 item 6): each rule fires where the
 * description names a charge the rates lack, with the words quoted, and stays silent where the
 * words only mention demand, a credit, a transformer's capacity, a penalty, another rate, or a
 * minimum that the fixed charge already covers.
 */
import { loadBundledTariffs } from '../../../test/helpers/tariffs';
import type { Tariff, TariffStructure } from './tariff.model';
import { chargesNamedButMissing } from './missing-charges';

const FIRES = {
  // "Demand Charge (7 a.m. to 10 p.m., Daily, Excluding Sunday): $4.75 per kW"; rates: $0.0415/kWh and $50/month.
  columbiaRiver: '539fb9a5ec4f024bc1dc2515',
  // "Demand Charges:" over "First 50 kW: No Charge" and "Next 950 kW: $11.28/kW"; no demand rate.
  russellville50: '539fbf21ec4f024c27d88e1b',
  // Georgia Power PLM-10: "$18.00 Basic Service Charge plus $7.81 per kW of billing demand in excess of 30 kW, plus
  // excess kVAR charges, ..."; no demand rate.
  georgiaPlm10: '555234385457a30e7e8b4571',
  // City of Miller (SD): "Monthly charge of $1.00 per meter."; no fixed charge.
  miller: '53bd706d5257a3285005bb95',
  // Tri-County Electric Coop: "* Minimum Monthly Charge: $30.00"; $21/month, no minimum charge.
  triCounty: '539f6eadec4f024411ecc50f',
  // City of Lompoc, three phase: "Minimum charge is $8.80 for single phase and $11.20 for three phase."; none in the rates.
  lompocThreePhase: '539f721aec4f024411eced8f',
};

const SILENT = {
  // "... all KW's shown for the present read will be billed at $2.40 per KW, the DEMAND 40 KW AND OVER rate": another rate.
  chelanUnder40: '539f6afaec4f024411ec9703',
  // "Control Penalty: ... will result in the following demand charges: *Winter Months: $25.50 per KW season": a penalty.
  dairylandPenalty: '539f754aec4f024411ed11f7',
  // "Minimum charge of $1.20 per kVa of connected Transformer Capacity": a minimum by transformer size.
  transformerMinimum: '539f6d5eec4f024411ecb551',
  // "the customer will receive a credit of $0.30 per kW of billing demand": a credit.
  demandCredit: '539f7339ec4f024411ecfa6b',
  // Pepco R: "Minimum Charge is the weighted average of ... Summer($15.37 ...) and ... Winter($15.40 ...)"; $15.3825/month.
  pepcoWeighted: '539f747dec4f024411ed0927',
  // "*Minimum Charge $13.54", and a $13.54/month customer charge: the minimum never binds.
  minimumIsCustomerCharge: '539fc8d0ec4f024d2f53ea78',
  // "... typically around $0.10 per kWh plus the $35 service charge."; $35/month in the rates.
  serviceChargeInRates: '539f6ffdec4f024411ecd4dd',
};

const sentence = (charge: string, words: string) =>
  `The tariff's description names ${charge} ("${words}") that its rates do not have: the bill leaves it out`;

describe('chargesNamedButMissing', () => {
  let fires: Record<keyof typeof FIRES, Tariff>;
  let silent: Tariff[];
  beforeAll(async () => {
    const keys = Object.keys(FIRES) as Array<keyof typeof FIRES>;
    const list = await loadBundledTariffs(keys.map((k) => FIRES[k]));
    fires = Object.fromEntries(keys.map((k, i) => [k, list[i]])) as typeof fires;
    silent = await loadBundledTariffs(Object.values(SILENT));
  });

  it('a demand charge the rates lack, quoted with the words that name it', () => {
    expect(chargesNamedButMissing(fires.columbiaRiver)).toEqual([
      sentence('a demand charge', 'Demand Charge (7 a.m. to 10 p.m., Daily, Excluding Sunday): $4.75 per kW'),
    ]);
    // A heading names the clauses under it; "..." stands for the lines between.
    expect(chargesNamedButMissing(fires.russellville50)).toEqual([
      sentence('a demand charge', 'Demand Charges: ... Next 950 kW: $11.28/kW'),
    ]);
    // The items of a list of charges are read apart: the kVAR charge after ", plus" does not silence the demand charge.
    expect(chargesNamedButMissing(fires.georgiaPlm10)).toEqual([
      sentence('a demand charge', '$7.81 per kW of billing demand in excess of 30 kW'),
    ]);
  });

  it('a customer charge and a minimum charge the rates lack', () => {
    expect(chargesNamedButMissing(fires.miller)).toEqual([sentence('a customer charge', 'Monthly charge of $1.00 per meter')]);
    expect(chargesNamedButMissing(fires.triCounty)).toEqual([sentence('a minimum charge', 'Minimum Monthly Charge: $30.00')]);
    // The rest of a short clause is quoted too, so a choice of amounts is not cut to its first.
    expect(chargesNamedButMissing(fires.lompocThreePhase)).toEqual([
      sentence('a minimum charge', 'Minimum charge is $8.80 for single phase and $11.20 for three phase'),
    ]);
  });

  it('is silent on demand mentioned in passing, credits, penalties, other rates and minimums the fixed charge covers', () => {
    for (const t of silent) expect({ id: t.id, found: chargesNamedButMissing(t) }).toEqual({ id: t.id, found: [] });
  });

  it('is silent when the rates have the charge the description names', () => {
    const withDemand: TariffStructure = {
      ...fires.columbiaRiver.structure,
      demandFlat: { periods: [[{ max: null, rate: 4.75 }]], months: Array<number>(12).fill(0), unit: 'kW' },
    };
    expect(chargesNamedButMissing({ description: fires.columbiaRiver.description, structure: withDemand })).toEqual([]);
    const withMinimum: TariffStructure = { ...fires.triCounty.structure, minimumCharge: { amount: 30, frequency: 'monthly' } };
    expect(chargesNamedButMissing({ description: fires.triCounty.description, structure: withMinimum })).toEqual([]);
  });

  it('reads any description: one sentence per kind, in the order demand, customer, minimum', () => {
    const bare: TariffStructure = {
      ...fires.miller.structure,
      fixedCharges: [],
      minimumCharge: null,
      demandFlat: null,
      demandTou: null,
      demandCoincident: null,
    };
    const description = 'Customer Charge: $25.00 per month\nDemand Charge: $8.50 per kW of billing demand\nMinimum monthly bill: $75.00.';
    expect(chargesNamedButMissing({ description, structure: bare })).toEqual([
      sentence('a demand charge', 'Demand Charge: $8.50 per kW of billing demand'),
      sentence('a customer charge', 'Customer Charge: $25.00 per month'),
      sentence('a minimum charge', 'Minimum monthly bill: $75.00'),
    ]);
    // Per kWh is energy, not demand; a minimum by a formula is not an amount.
    expect(
      chargesNamedButMissing({ description: 'Energy: $0.085 per kWh. Minimum bill: $5.00 plus $1.00 per kVA.', structure: bare }),
    ).toEqual([]);
    expect(chargesNamedButMissing({ description: '', structure: bare })).toEqual([]);
  });
});
