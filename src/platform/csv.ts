/**
 * CSV as the service writes it for spreadsheets and ledger imports: RFC 4180 (CRLF line ends, a
 * header row, fields with a comma, quote or line break in double quotes, quotes doubled).
 */

/**
 * Where a spreadsheet may begin a formula: at the start of a cell, or where an app that splits
 * cells on `,` or `;` (the list separator of many locales), tab or a line break would start one,
 * after any whitespace and quote characters (` =2+5`, `a;=HYPERLINK(...)`, `x," @SUM(A1)`).
 */
const FORMULA_AT_A_CELL_START = /(?:^|[,;\t\r\n])[\s"']*[=+\-@]/;
/** OWASP also lists a tab or a carriage return as a dangerous first character. */
const CONTROL_FIRST = /^[\t\r]/;

/** True when a spreadsheet could read a formula in the text (see FORMULA_AT_A_CELL_START). */
export function mayRunAsFormula(text: string): boolean {
  return CONTROL_FIRST.test(text) || FORMULA_AT_A_CELL_START.test(text);
}

/**
 * OWASP's advice against CSV injection (owasp.org/www-community/attacks/CSV_Injection): text a
 * spreadsheet could run as a formula gets a leading apostrophe, so the cell is read as text; its
 * separators and quotes are kept inside the cell by csvField's quoting, so no cell starts within
 * it. Names, ids, notes and messages are user input.
 */
export function neutralise(text: string): string {
  return mayRunAsFormula(text) ? `'${text}` : text;
}

/**
 * RFC 4180 quoting: a field holding a comma, quote or line break is quoted, its quotes doubled;
 * also one holding `;` or a tab, which spreadsheet apps of other locales split cells on.
 */
export function csvField(value: string): string {
  return /[",;\t\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A header and rows of already formatted fields, as one CSV document. */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return `${[header, ...rows].map((fields) => fields.map(csvField).join(',')).join('\r\n')}\r\n`;
}
