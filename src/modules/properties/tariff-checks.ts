/**
 * The tariffs a property prices on, checked: of the owner, of the utility type and service the field
 * is for, and of the property's state (README "A tariff of the property's state").
 */
import type { FieldError } from '../../platform/http/errors';
import { unprocessable } from '../../platform/http/errors';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import type { createMeterRepository } from '../meters/public';
import type { PropertyValues } from './repository';
import type { PropertyServiceDeps } from './service';

export type TariffField = 'tariff_id' | 'supply_tariff_id';

/** What a tariff is checked for: its utility type, the field naming it, and the state it must be of (with whose state that is). */
export interface TariffUse {
  utilityType: string;
  field: TariffField;
  /** The state of the property it prices (the meter's property for a meter); absent: not checked. */
  state?: string;
  /** How the message names the state's holder: "the property" (default), "the meter's property". */
  whose?: string;
}

/**
 * A tariff prices properties of its own state only (properties README "A tariff of the property's
 * state"): one of another state (a Georgia Power tariff on a Denver property) is a 422 naming both,
 * e.g. "tariff_id 5ae3acd05457a3a8689b4e70 is a GA tariff (Georgia Power Co); the property is in CO".
 * A tariff without a state (an own tariff whose utility has none on record, a utility only URDB
 * names) fits every state: its utility is the owner's word. Null when it fits.
 */
export function tariffStateProblem(
  tariff: Pick<Tariff, 'id' | 'state' | 'utilityName'>,
  field: TariffField,
  state: string,
  whose: string,
): string | null {
  if (tariff.state === null || tariff.state === '' || tariff.state === state) return null;
  const utility = tariff.utilityName ? ` (${tariff.utilityName})` : '';
  return `${field} ${tariff.id} is a ${tariff.state} tariff${utility}; ${whose} is in ${state}`;
}

export function createTariffChecks(
  deps: Pick<PropertyServiceDeps, 'tariffs'>,
  meterRepo: Pick<ReturnType<typeof createMeterRepository>, 'ofProperty'>,
) {
  /**
   * A tariff the owner may price `field` on: a catalog tariff or their own, of the utility type it
   * is for; tariff_id is a delivery (or bundled) tariff, supply_tariff_id a supply-only one. With
   * `state`, also a tariff of that state (or of none: tariffStateProblem).
   */
  async function requireTariff(
    id: string,
    ownerId: string,
    use: TariffUse = { utilityType: 'electric', field: 'tariff_id' },
  ): Promise<Tariff> {
    const tariff = await deps.tariffs.findTariffById(id, ownerId);
    if (!tariff) throw unprocessable('Tariff not found', use.field);
    const type = usageOf(tariff).utilityType;
    if (type !== use.utilityType) {
      throw unprocessable(
        `${use.field} must be ${/^[aeiou]/.test(use.utilityType) ? 'an' : 'a'} ${use.utilityType} tariff: ${id} prices ${type}`,
        use.field,
      );
    }
    if (use.field === 'supply_tariff_id' && tariff.serviceType !== 'supply_only') {
      throw unprocessable(`supply_tariff_id must name a supply-only tariff: ${id} is ${tariff.serviceType}`, use.field);
    }
    if (use.field === 'tariff_id' && tariff.serviceType === 'supply_only') {
      throw unprocessable(`tariff_id is the utility's tariff: ${id} is supply only (give it as supply_tariff_id)`, use.field);
    }
    if (use.state !== undefined) {
      const problem = tariffStateProblem(tariff, use.field, use.state, use.whose ?? 'the property');
      if (problem) throw unprocessable(problem, use.field);
    }
    return tariff;
  }

  /**
   * The property's tariff and supply contract as they price today (null where it has none): those
   * the request sets are checked (of the property's state too); one stored earlier that no longer
   * exists prices nothing. When the request moves the property to another state, a stored tariff
   * of another state is a 422 on `state` (tariffStateProblem).
   */
  async function pricingTariffs(
    ownerId: string,
    p: Pick<PropertyValues, 'tariffId' | 'supplyTariffId' | 'state'>,
    given: Partial<PropertyValues>,
    stateChanged = false,
  ) {
    const load = async (id: string | null | undefined, field: TariffField) => {
      if (!id) return null;
      if ((field === 'tariff_id' ? 'tariffId' : 'supplyTariffId') in given) {
        return requireTariff(id, ownerId, { utilityType: 'electric', field, state: p.state });
      }
      const stored = await deps.tariffs.findTariffById(id, ownerId);
      const problem = stored && stateChanged ? tariffStateProblem(stored, field, p.state, 'the property') : null;
      if (problem) {
        throw unprocessable(
          `state ${p.state} does not fit the property's ${field}: ${problem}; give a ${p.state} ${field} (or null) in the same PATCH`,
          'state',
        );
      }
      return stored;
    };
    return { tariff: await load(p.tariffId, 'tariff_id'), supply: await load(p.supplyTariffId, 'supply_tariff_id') };
  }

  /**
   * The property's meters whose tariffs a move to `state` would put in another state: one error
   * each, on `state`, naming the meter, its tariff and both states.
   */
  async function meterStateProblems(ownerId: string, propertyId: string, state: string): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const m of await meterRepo.ofProperty(propertyId)) {
      for (const [field, id] of [
        ['tariff_id', m.tariffId],
        ['supply_tariff_id', m.supplyTariffId],
      ] as const) {
        if (!id) continue;
        const tariff = await deps.tariffs.findTariffById(id, ownerId);
        const problem = tariff ? tariffStateProblem(tariff, field, state, 'the property') : null;
        if (problem) {
          errors.push({
            field: 'state',
            message: `state ${state} does not fit meter '${m.name}' (${m.id}): ${problem}; clear or change the meter's ${field} first (PATCH /pm/meters/${m.id})`,
          });
        }
      }
    }
    return errors;
  }

  return { requireTariff, pricingTariffs, meterStateProblems };
}
