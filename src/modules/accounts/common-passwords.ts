import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/paths';

/** The list, shipped beside this file (its header says where it comes from). */
export const COMMON_PASSWORDS_FILE = path.join(PROJECT_ROOT, 'src', 'modules', 'accounts', 'common-passwords.txt');

export const COMMON_PASSWORD = 'password is too common: it is on a list of passwords leaked in data breaches, choose another';

let list: { passwords: ReadonlySet<string>; words: ReadonlySet<string> } | undefined;

/** Letters stand-ins (0 for o, @ for a, ...) undone, the way password crackers' rules try them. */
const SUBSTITUTES: Record<string, string> = { '0': 'o', '1': 'i', '!': 'i', '3': 'e', '4': 'a', '@': 'a', '5': 's', $: 's', '7': 't' };

/** A password's word: lower-cased, digits and symbols at either end dropped, stand-ins undone (`P@ssw0rd!2024` is `password`). */
export function wordOf(password: string): string {
  const core = password
    .toLowerCase()
    .replace(/^[^\p{L}]+/u, '')
    .replace(/[^\p{L}]+$/u, '');
  return [...core].map((c) => SUBSTITUTES[c] ?? c).join('');
}

/** Words shorter than this are not taken from the list: `abc` + digits says little. */
const MIN_WORD = 4;

/**
 * The lower-cased common passwords, read once, and their words (`password1` and `jordan23` give
 * `password` and `jordan`): the words people dress up with digits and symbols.
 */
function commonPasswords() {
  if (!list) {
    const passwords = new Set(
      fs
        .readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#')),
    );
    const words = new Set([...passwords].map(wordOf).filter((w) => w.length >= MIN_WORD && /^\p{L}+$/u.test(w)));
    list = { passwords, words };
  }
  return list;
}

/** Fewer distinct characters than this (letters' case aside) is a repetition, not a password (`Aa1aaaaa`). */
const MIN_DISTINCT = 4;

/**
 * True for a common password (NIST SP 800-63B 5.1.1.2: a memorized secret is checked against
 * passwords from breach corpuses, dictionary words, and repetitive or sequential characters):
 * - on the list, whatever its letters' case (`Password1` is `password1`, among the most common);
 * - the word of a listed password dressed up with digits and symbols at its ends or letter
 *   stand-ins (`Password2026`, `Passw0rd!`, `Summer2024`): a cracker tries those first;
 * - fewer than 4 distinct characters (`Aa1aaaaa`).
 */
export function isCommonPassword(password: string): boolean {
  const { passwords, words } = commonPasswords();
  if (passwords.has(password.toLowerCase())) return true;
  if (words.has(wordOf(password))) return true;
  return new Set(password.toLowerCase()).size < MIN_DISTINCT;
}
