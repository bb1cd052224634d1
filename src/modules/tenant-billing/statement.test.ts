import { escapeHtml } from './statement.html';
import { csvField } from '../../platform/csv';
import { percent2, percentAsWritten, quantity, usd } from './format';

describe('statement and export text', () => {
  it('formats money, quantities and percentages as a US tenant reads them', () => {
    expect([usd(0), usd(0.5), usd(12.3), usd(1234567.89), usd(-0.01), usd(99_999_999_999.99)]).toEqual([
      '$0.00',
      '$0.50',
      '$12.30',
      '$1,234,567.89',
      '-$0.01',
      '$99,999,999,999.99',
    ]);
    expect([quantity(10200), quantity(1241.93548), quantity(0.1)]).toEqual(['10,200', '1,241.9355', '0.1']);
    expect([percent2(37.5), percent2(8.33), percent2(0)]).toEqual(['37.50%', '8.33%', '0.00%']);
    expect([percentAsWritten(5), percentAsWritten(2.5), percentAsWritten(0.025 * 100)]).toEqual(['5%', '2.5%', '2.5%']);
  });

  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;');
  });

  it('quotes a CSV field only when RFC 4180 needs it', () => {
    expect([csvField('plain'), csvField('a,b'), csvField('say "hi"'), csvField('two\nlines'), csvField('')]).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '',
    ]);
  });
});
