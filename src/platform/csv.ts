/**
 * CSV as the service writes it for spreadsheets and ledger imports: RFC 4180 (CRLF line ends, a
 * header row, fields with a comma, quote or line break in double quotes, quotes doubled).
 */

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe,
 * OWASP's advice against CSV injection: names, ids and messages are user input.
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A header and rows of already formatted fields, as one CSV document. */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return `${[header, ...rows].map((fields) => fields.map(csvField).join(',')).join('\r\n')}\r\n`;
}
