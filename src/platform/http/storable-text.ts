/**
 * Text PostgreSQL can store. Its text and jsonb types refuse NUL, and a lone UTF-16 surrogate
 * (JSON.parse makes one of an escape such as \ud800, plain ASCII in a body; a percent-encoded
 * query string can carry one too) is not Unicode: stored, it would come back as U+FFFD. With
 * the `u` flag a surrogate pair is one character, so \p{Cs} matches only a lone half.
 */
const LONE_SURROGATE = /\p{Cs}/u;

export const NUL_PROBLEM = 'must not contain NUL characters';
export const SURROGATE_PROBLEM = 'must be well-formed Unicode (no lone surrogates)';

/**
 * In JSON a NUL or a lone surrogate can only come from an escape (\u0000, \ud800): a raw control
 * character is not JSON, and bytes that are not UTF-8 decode to U+FFFD. A raw JSON body without
 * such an escape parses to storable text only, and need not be walked.
 */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** True when a raw JSON text may parse to a string PostgreSQL cannot store. */
export function mayHoldUnstorableEscape(json: string | Buffer): boolean {
  if (typeof json === 'string') return UNSTORABLE_ESCAPE.test(json);
  return json.includes('\\u') && UNSTORABLE_ESCAPE.test(json.toString('latin1'));
}

/** Why PostgreSQL could not store `text` as it is, or null. */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes('\u0000')) return NUL_PROBLEM;
  return LONE_SURROGATE.test(text) ? SURROGATE_PROBLEM : null;
}

/** A string that cannot be stored, where it sits (keys from the root) and whether it is a key. */
export interface UnstorableText {
  path: Array<string | number>;
  isKey: boolean;
  problem: string;
}

interface Place {
  parent: Place | null;
  key: string | number;
}

function keysOf(place: Place | null): Array<string | number> {
  const keys: Array<string | number> = [];
  for (let p = place; p; p = p.parent) keys.push(p.key);
  return keys.reverse();
}

/**
 * The first string of a parsed value (a JSON body, a query object), key or value at any depth,
 * that PostgreSQL could not store; null if none. Iterative: a deeply nested body must not
 * overflow the stack. A key's path is that of the object holding it.
 */
export function firstUnstorableText(root: unknown): UnstorableText | null {
  const stack: Array<{ value: unknown; place: Place | null }> = [{ value: root, place: null }];
  while (stack.length > 0) {
    const { value, place } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = unstorableTextProblem(value);
      if (problem) return { path: keysOf(place), isKey: false, problem };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], place: { parent: place, key: i } });
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        const problem = unstorableTextProblem(key);
        if (problem) return { path: keysOf(place), isKey: true, problem };
      }
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], place: { parent: place, key: entries[i][0] } });
    }
  }
  return null;
}
