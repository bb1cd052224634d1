/**
 * Usage sent in one unit, priced on a tariff that bills in another (pricing README "Units"). Pure.
 *
 * Water and sewer units all measure volume and convert by the meter families' factors (US gallon
 * = 231 in³, so 1 ccf = 748.05195 gallons). Gas is sold by volume (cf, ccf, mcf) or by heat
 * (therms, kBtu, MMBtu): volumes convert among themselves and heat units among themselves, but a
 * volume becomes heat only through the gas's heat content, which the utility states on each bill
 * (therms per ccf, e.g. 1.037); without it the conversion is refused rather than guessed.
 */
import { UNIT_FAMILIES, unitsOf } from '../meters/units';
import type { UtilityType } from '../tariffs/tariff.model';

/** Gas volume units in cubic feet, and heat units in therms. */
const GAS_VOLUME_CF: Readonly<Record<string, number>> = { cf: 1, ccf: 100, mcf: 1000 };
const GAS_HEAT_THERMS: Readonly<Record<string, number>> = { therms: 1, kBtu: 0.01, MMBtu: 10 };

export type Conversion = { ok: true; quantity: number; note: string | null } | { ok: false; message: string; field: string };

/** A quantity to the 0.001 unit the engine meters in, rounded half up (quantities are never negative). */
const toThousandths = (x: number) => Math.round(x * 1000) / 1000;

/**
 * `usage` in `from` as a quantity of `to` (the tariff's unit), to 0.001 of it, with the sentence the
 * bill's assumptions carry when a conversion happened. `heatContent` is therms per ccf.
 */
export function convertUsage(
  type: UtilityType,
  usage: number,
  from: string,
  to: string,
  heatContent: number | null | undefined,
): Conversion {
  if (!Object.hasOwn(UNIT_FAMILIES[type].units, from)) {
    return { ok: false, field: 'unit', message: `unit '${from}' is not a unit of ${type} (${unitsOf(type)})` };
  }
  if (from === to) return { ok: true, quantity: usage, note: null };
  let quantity: number;
  let how: string;
  if (type === 'gas') {
    const heat = (u: string) => GAS_HEAT_THERMS[u];
    const volume = (u: string) => GAS_VOLUME_CF[u];
    if (heat(from) !== undefined && heat(to) !== undefined) {
      quantity = (usage * heat(from)) / heat(to);
      how = `1 ${from} = ${heat(from) / heat(to)} ${to}`;
    } else if (volume(from) !== undefined && volume(to) !== undefined) {
      quantity = (usage * volume(from)) / volume(to);
      how = `1 ${from} = ${volume(from) / volume(to)} ${to}`;
    } else {
      if (heatContent === undefined || heatContent === null) {
        return {
          ok: false,
          field: 'heat_content',
          message: `heat_content (therms per ccf, as the gas bill states it) is required to convert ${from} to ${to}`,
        };
      }
      // therms = ccf x heat content; every volume goes through ccf, every heat unit through therms.
      const therms = heat(from) !== undefined ? usage * heat(from) : ((usage * volume(from)) / 100) * heatContent;
      quantity = heat(to) !== undefined ? therms / heat(to) : ((therms / heatContent) * 100) / volume(to);
      how = `heat content ${heatContent} therms per ccf`;
    }
  } else {
    const units = UNIT_FAMILIES[type].units;
    quantity = (usage * units[from]) / units[to];
    how = `1 ${from} = ${Number((units[from] / units[to]).toPrecision(6))} ${to}`;
  }
  const rounded = toThousandths(quantity);
  return { ok: true, quantity: rounded, note: `usage ${usage} ${from} converted to ${rounded} ${to} (${how}), to 0.001 ${to}` };
}
