import { csvDocument, csvField, mayRunAsFormula, neutralise } from './csv';

/** OWASP CSV injection: no cell a spreadsheet opens may begin a formula (issue 46 item 6). */
describe('CSV formula guard', () => {
  it.each([
    ['=2+5'],
    ['+2+5'],
    ['-2+5'],
    ['@SUM(A1)'],
    ['\t=2+5'],
    ['\r=2+5'],
    ['\tplain'],
    // whitespace before the formula character
    [' =2+5'],
    ['   +cmd'],
    ['\u00a0=2+5'],
    ['\n=2+5'],
    // a cell a `;` or `,` separator starts inside the text, with or without spaces and quotes
    ['Ana;=2+5'],
    ['Ana; =2+5'],
    ['Ana,=HYPERLINK("http://evil")'],
    ['Ana, @SUM(A1)'],
    ['Ana;"=2+5'],
    ["Ana;'=2+5"],
    ['line one\n=2+5'],
    ['a\t-1+1'],
  ])('neutralises %j', (text) => {
    expect(mayRunAsFormula(text)).toBe(true);
    expect(neutralise(text)).toBe(`'${text}`);
  });

  it.each([['Ana Lima'], ['unit 4-B'], ['a=b'], ['x + y'], ['alice@example.com'], ['Lima, Ana'], ['A; B'], ['']])(
    'leaves %j as it is',
    (text) => {
      expect(neutralise(text)).toBe(text);
    },
  );

  it('quotes a field holding ; or a tab, so a spreadsheet that splits on them keeps one cell', () => {
    expect(csvField("'Ana;=2+5")).toBe(`"'Ana;=2+5"`);
    expect(csvField('a\tb')).toBe('"a\tb"');
    expect(csvDocument(['name'], [[neutralise(' =2+5')], [neutralise('Ana;=1+1')]])).toBe(`name\r\n' =2+5\r\n"'Ana;=1+1"\r\n`);
  });
});
