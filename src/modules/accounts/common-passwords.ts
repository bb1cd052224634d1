import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/paths';

/** The list, shipped beside this file (its header says where it comes from). */
export const COMMON_PASSWORDS_FILE = path.join(PROJECT_ROOT, 'src', 'modules', 'accounts', 'common-passwords.txt');

export const COMMON_PASSWORD = 'password is too common: it is on a list of passwords leaked in data breaches, choose another';

let list: ReadonlySet<string> | undefined;

/** The lower-cased common passwords, read once. */
function commonPasswords(): ReadonlySet<string> {
  list ??= new Set(
    fs.readFileSync(COMMON_PASSWORDS_FILE, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')),
  );
  return list;
}

/**
 * True for a password on the list of common passwords, whatever its letters' case (NIST SP 800-63B
 * 5.1.1.2: a memorized secret is checked against passwords from breach corpuses; `Password1` is
 * `password1`, among the most common).
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
