import { tariffState, urdbLinesOf } from './bundled';
import { stateNamedIn } from '../utilities/state-names';
import type { UtilityRecord, UtilityReference } from '../utilities/reference';

const utility = (id: string, state: string | null, statesServed: string[]): UtilityRecord => ({
  id,
  name: `U${id}`,
  state,
  type: null,
  customersServed: null,
  serviceTerritory: null,
  statesServed,
});

const ref: UtilityReference = {
  utilities: new Map([
    ['12199', utility('12199', 'ND', ['MT', 'ND', 'SD', 'WY'])],
    ['14328', utility('14328', 'CA', ['CA'])],
    ['14354', utility('14354', 'UT', ['CA', 'ID', 'OR', 'UT', 'WA', 'WY'])],
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

  it("else the one state a multi-state utility's source address names (issue 45: PacifiCorp's California schedules were Utah's)", () => {
    const a25 =
      'https://www.pacificpower.net/content/dam/pcorp/documents/en/pacificpower/rates-regulation/california/tariffs/rates/A-25.pdf';
    expect(tariffState({ eiaid: 14354, utility: 'PacifiCorp', source: a25.replace('california', 'California') }, ref)).toBe('CA');
    expect(
      tariffState({ eiaid: 14354, utility: 'PacifiCorp', source: 'https://www.pacificpower.net/Washington/Idaho_rates.pdf' }, ref),
    ).toBe('UT');
    // a citation, not an address, names no state; nor does an address of a state the utility does not serve
    expect(tariffState({ eiaid: 14354, utility: 'PacifiCorp', source: 'Rate Binder #7 (Oregon State University)' }, ref)).toBe('UT');
    expect(tariffState({ eiaid: 14354, utility: 'PacifiCorp', sourceparent: 'https://example.com/Texas/rates' }, ref)).toBe('UT');
    expect(tariffState({ eiaid: 14354, utility: 'PacifiCorp (Oregon)', source: 'https://example.com/California/x.pdf' }, ref)).toBe('OR');
    // a single-state utility keeps its state
    expect(tariffState({ eiaid: 14328, utility: 'Pacific Gas & Electric Co', source: 'https://pge.com/Oregon/x.pdf' }, ref)).toBe('CA');
  });
});

describe('URDB JSONL lines (both bundled files)', () => {
  const text = ['{"label": "a1"}', '', '[1, 2]', 'null', '{"label": "broken', '{"label": "b2"}'].join('\n');

  it('keeps a line number per non-blank line; a line that is not a JSON object, an array included, says why', () => {
    expect(urdbLinesOf(text, '')).toEqual([
      { line: 1, record: { label: 'a1' } },
      { line: 3, record: null, error: 'line 3 is not a JSON object (not an object)' },
      { line: 4, record: null, error: 'line 4 is not a JSON object (not an object)' },
      { line: 5, record: null, error: expect.stringMatching(/^line 5 is not a JSON object \(/) },
      { line: 6, record: { label: 'b2' } },
    ]);
  });

  it('names the file before the line, and keeps only the labels asked for', () => {
    expect(urdbLinesOf(text, 'extra.jsonl ')[1]).toEqual({
      line: 3,
      record: null,
      error: 'extra.jsonl line 3 is not a JSON object (not an object)',
    });
    expect(urdbLinesOf(text, '', new Set(['b2']))).toEqual([{ line: 6, record: { label: 'b2' } }]);
  });
});
