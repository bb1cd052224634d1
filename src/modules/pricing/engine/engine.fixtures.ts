/** Shared set-up of the engine's hand-computed tests: real bundled tariffs by name, and short call helpers. */
import { loadBundledTariffs } from '../../../../test/helpers/tariffs';
import type { Tariff } from '../../tariffs/tariff.model';
import { bundledLoadShapes } from '../load-shapes';
import { calculateBill, type BillRequest, type BillResult } from './index';

export const shapes = bundledLoadShapes();

/** Loads (in a beforeAll) the tariffs named by `ids`; read them through the returned object inside tests. */
export function bundledTariffs<K extends string>(ids: Record<K, string>): Record<K, Tariff> {
  const loaded = {} as Record<K, Tariff>;
  beforeAll(async () => {
    const keys = Object.keys(ids) as K[];
    const list = await loadBundledTariffs(keys.map((k) => ids[k]));
    keys.forEach((k, i) => (loaded[k] = list[i]));
  });
  return loaded;
}

/**
 * The real bundled tariffs (URDB labels) the hand-worked engine tests price, with the published numbers their
 * cases are worked from (price = rate + adj). Read them through `engineTariffs()`.
 */
export const BUNDLED = {
  // Flat, tiered, seasonal, daily tiers, fixed and minimum charges (engine.energy)
  // Northern Indiana PS "Municipal Power": 0.094782 + adj 0.016079; min $6.99/month
  municipalFlat: '539f6adcec4f024411ec9565',
  // Winnsboro "General Service": 800 kWh @0.0879, then 0.0854; min $7.23/month
  winnsboroTiered: '539f6a45ec4f024411ec8d1d',
  // Scribner EL 10: Jun-Sep 200 @0.1373 then 0.0544; else 200 @0.0939 then 0.0391; $60/month; no dg rules, no sell rate
  scribner: '539f6a0aec4f024411ec8aa7',
  // SCE Domestic D region 5: "kWh daily" tiers; $0.9436/month
  sceDailyTiers: '539f6a8fec4f024411ec914d',
  // Sullivan County Rate 18: 0.07744/kWh, $2/month, min $48/year
  sullivanYearlyMin: '539f6a8fec4f024411ec9149',
  // Montana-Dakota Rate 22, Net Metering, no sell rate: 0.02135 + adj 0.03573 = 0.05708 $/kWh; $0.23/day
  montanaDakota22: '5925fea75457a30036de90e2',

  // Demand charges and riders (engine.demand)
  // AEP GS Transmission: kWh/kW tiers 50/150/375 (rate + adj), facility demand 4.12 - 1.10, $36.66/month, fuel adjustments
  kwhPerKw: '58f661175457a3133d156660',
  // TVA-style Manufacturing Credit, Net Metering, no sell rate: facility demand tiers by season (adj -1.38/-1.63),
  // energy adj -0.01076, $150/month, fuel adjustments
  manufacturingCredit: '606b31765457a3d01b3caddf',
  // Retail Transmission Service: one energy period all year, flat 0.01525 + 0.03052; TOU demand 3.77 / 2.77 / 2.60; $500/month
  retailTransmission: '539f6a22ec4f024411ec8b87',
  // TGSA Time-of-Day: TOU energy (rate + adj 0.02101), TOU demand 13.06 / 12.42 / 0, $300/month, fuel
  touEnergyDemand: '5a6233b75457a3b637e429ce',
  // City of Lexington (TN) Coincident Peak Rate -1: kWh/kW tiers (438 h x demand at 0.0511, then 0.0467);
  // coincident demand 7.33 $/kW (January-May, October-December) or 25.07 (June-September); minimum $73.12/month;
  // applicability 100-500 kW
  lexington: '539f6dfcec4f024411ecbcbf',

  // Tiers in kWh per kW, "hours use" (engine.hours-use)
  // City of Sikeston (MO) Large General Service: 180 / 360 kWh per kW at $0.05 / $0.045, then $0.04;
  // $6.47/kW; minimum $647/month; 50 % demand ratchet. The pricing README's worked example.
  sikeston: '5616cc4d5457a3945e35c496',
  // City of Calhoun (GA) Medium Power Service: 6,000 kWh at $0.10, then to 200 kWh per kW at $0.09, to 400 kWh
  // per kW at $0.044, then $0.04; $2.50/kW; $60/month.
  calhoun: '539fba9dec4f024bc1dc3011',
  // Northern States Power (MN) Secondary Peak Controlled TOD (E21): on-peak $0.11306 and off-peak $0.09859 up to
  // 360 kWh per kW, then $0.037342 / $0.022872; TOU demand $5.82 / $2.00 in July; $50/month.
  nspE21: '539f6dacec4f024411ecb8b9',

  // Charges a request cannot price (engine.notices)
  // Memphis TMSC: $1,537.86/month, $350/month per additional meter, reactive power 1.49 $/kVAR; 15,000-25,000 kW
  memphis: '5edfb0a95457a33c1acfd350',
  // Schedule B: 0.067 $/kWh, facility demand 5 $/kW, $25/month, demand ratchet 60 %
  ratchet: '539f6a80ec4f024411ec9089',

  // Solar (engine.solar)
  // GS-1 Three Phase, Net Metering, rate and sell 0.1169; $12/month
  nmSell: '539f6a0aec4f024411ec8ac3',
  // TRRES, Net Billing Instantaneous: summer tiers 500 / 1000 kWh (rate + adj), sell 0.0964; $13/month
  netBilling: '5c75723a5457a3cd76f3afb0',

  // Tiers inside time-of-use periods (engine.tiers)
  // A & N Electric Coop TOU-B (Three Phase): period 1 0.061137 then 0.046137 above 3,500 kWh; period 2 (weekdays
  // 15:00-20:00 in July, also 06:00-08:00 in January) 0.196137 then 0.181137 above 3,500 kWh; $17.50/month
  anTouB: '539f70d5ec4f024411ecdf43',
  // The Single Phase schedule: the same rates, $10.25/month
  anTouBSingle: '539fc38fec4f024c27d8bd79',
  // UNS Electric SGS-10 TOU: three periods, tiers at 400 and 7,500 kWh (adj -0.003234); $16.50/month;
  // applicability: at most 500 kWh a month (peakkwhusagemax)
  unsSgs10Tou: '53ce83dd5257a36e75503cf8',

  // Time of use (engine.tou)
  // GS-TOD-G: weekday summer peak 13:00-21:00 at 0.04712 + 0.01485, else 0.01758 + 0.001353; weekends all off-peak;
  // facility demand 3.67 (Nov-Apr) / 5.13 (May-Oct); $36.66/month; fuel adjustments
  gsTod: '58f675d45457a36350156660',
  // LGS-TOU-N: summer on / mid / off-peak, each with a 12,500 kWh tier (adj -0.004851); demand 14.12; $20.90/month
  lgsTou: '539f6b16ec4f024411ec9847',
};

/** Loads (in a beforeAll) every tariff of BUNDLED; read them by name inside tests. */
export const engineTariffs = () => bundledTariffs(BUNDLED);

export const bill = (tariff: Tariff, req: Partial<BillRequest>) => calculateBill(tariff, { usageKwh: 0, month: 1, ...req }, shapes);
export const amounts = (b: BillResult) => b.lineItems.map((i) => [i.category, i.name, i.amount]);
