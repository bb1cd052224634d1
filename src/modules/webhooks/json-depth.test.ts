import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

const nest = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);

describe('nestsDeeperThan', () => {
  it.each([
    ['{}', 1, false],
    ['{"a":{}}', 1, true],
    ['{"a":[1,{"b":2}]}', 3, false],
    ['{"a":[1,{"b":2}]}', 2, true],
    // brackets in strings, escaped quotes in strings
    ['{"a":"[[[[{{{{"}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['{"a\\\\":[[]]}', 2, true],
    ['', 0, false],
    ['not json', 0, false],
    [']]]][[', 1, true],
  ])('%s with limit %d: %s', (json, limit, expected) => {
    expect(nestsDeeperThan(Buffer.from(json), limit)).toBe(expected);
  });

  it(`defaults to ${MAX_JSON_DEPTH} levels and reads 20,000 levels without recursion`, () => {
    expect(nestsDeeperThan(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(nest(20_000))).toBe(true);
    // UTF-8 text with multi-byte characters counts as well.
    expect(nestsDeeperThan(Buffer.from('{"é":["ü",{"名":"[["}]}'), 3)).toBe(false);
  });
});
