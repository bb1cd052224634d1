import { deepFreeze } from './deep-freeze';

describe('deepFreeze', () => {
  it('freezes an answer and everything in it, and returns it', () => {
    const answer = { months: [{ month: '2026-10', total_cost: 1234.5 }], note: 'é' };
    expect(deepFreeze(answer)).toBe(answer);
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.months)).toBe(true);
    expect(Object.isFrozen(answer.months[0])).toBe(true);
    expect(() => {
      (answer.months[0] as { total_cost: number }).total_cost = 0;
    }).toThrow(TypeError);
  });
});
