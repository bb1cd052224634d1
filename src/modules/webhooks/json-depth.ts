/**
 * How deep a webhook body may nest (objects and arrays, the body itself counting 1). A provider's
 * event nests a few levels (data.current_lease.resident_name is 3); 64 leaves room for any real
 * payload and keeps every recursive reader (JSON.stringify answering the log, PostgreSQL's jsonb)
 * far from its stack limit: a body nested 20,000 deep made GET /api/webhooks/logs a 500 for good.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when the JSON text nests objects and arrays deeper than `limit`. Reads the raw bytes once,
 * without parsing or recursion (brackets inside strings do not count), so it is safe on any input;
 * on text that is not JSON it counts the brackets outside what look like strings.
 */
export function nestsDeeperThan(json: Buffer, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const b = json[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return false;
}
