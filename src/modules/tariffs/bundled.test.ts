import { tariffState } from './bundled';
import { stateNamedIn } from '../utilities/state-names';
import type { UtilityRecord, UtilityReference } from '../utilities/reference';

const utility = (id: string, state: string | null, statesServed: string[]): UtilityRecord =>
  ({ id, name: `U${id}`, state, type: null, customersServed: null, serviceTerritory: null, statesServed });

const ref: UtilityReference = {
  utilities: new Map([
    ['12199', utility('12199', 'ND', ['MT', 'ND', 'SD', 'WY'])],
    ['14328', utility('14328', 'CA', ['CA'])],
  ]),
  zipPairs: [],
};

describe('tariff state rule', () => {
  it('reads a state name in parentheses at the end of a URDB utility name', () => {
    expect(stateNamedIn('PacifiCorp (Oregon)')).toBe('OR');
    expect(stateNamedIn('Potomac Electric Power Co (District of Columbia)')).toBe('DC');
    expect(stateNamedIn('City of Scribner, Nebraska (Utility Company)')).toBeNull();
    expect(stateNamedIn('Pacific Gas & Electric Co')).toBeNull();
  });

  it('uses the named state only when the utility serves it and several states', () => {
    expect(tariffState({ eiaid: 12199, utility: 'Montana-Dakota Utilities Co (Wyoming)' }, ref)).toBe('WY');
    expect(tariffState({ eiaid: 12199, utility: 'Montana-Dakota Utilities Co' }, ref)).toBe('ND');
    expect(tariffState({ eiaid: 12199, utility: 'Montana-Dakota Utilities Co (Texas)' }, ref)).toBe('ND');
    expect(tariffState({ eiaid: 14328, utility: 'Pacific Gas & Electric Co (Oregon)' }, ref)).toBe('CA');
    expect(tariffState({ eiaid: 1, utility: 'Unknown (Ohio)' }, ref)).toBeNull();
  });
});
