import { jsonBytes } from './json-bytes';

describe('jsonBytes', () => {
  it('is the UTF-8 of JSON.stringify, beyond ASCII too (Latin-1, other scripts, astral, lone surrogates escaped)', () => {
    const values: unknown[] = [
      { name: 'plain', n: 1.5, ok: true, none: null },
      { name: 'José Müller' },
      { name: 'Łódź, Київ, 東京' },
      { name: 'office 🏢' },
      { broken: 'a\ud800b' },
      ['x'.repeat(100_000), 'é'.repeat(1000)],
      'a string',
      42,
    ];
    for (const v of values) expect(jsonBytes(v).equals(Buffer.from(JSON.stringify(v), 'utf8'))).toBe(true);
    expect(jsonBytes({ name: 'office 🏢' }).toString('utf8')).toBe('{"name":"office 🏢"}');
    expect(jsonBytes({ broken: 'a\ud800b' }).toString('utf8')).toBe('{"broken":"a\\ud800b"}');
  });

  it('undefined (no body) is empty; the Buffer is a Buffer, so Express sends it as bytes', () => {
    expect(jsonBytes(undefined).length).toBe(0);
    expect(Buffer.isBuffer(jsonBytes({ a: 1 }))).toBe(true);
  });
});
