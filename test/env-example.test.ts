import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, configDefaults, loadConfig } from '../src/platform/config';

const ROOT = path.resolve(__dirname, '..');
const lines = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8').split('\n');
/** `# NAME=value` lines: a variable with its default. */
const listed = new Map(
  lines.flatMap((l) => {
    const m = /^# ([A-Z][A-Z0-9_]*)=(.*)$/.exec(l);
    return m ? [[m[1], m[2]] as const] : [];
  }),
);

/** Issue 51 item 6: `.env.example` lists every setting, so it has to stay complete as settings are added. */
describe('.env.example', () => {
  it('lists every variable src/platform/config.ts reads, and no other', () => {
    expect([...listed.keys()].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('gives each the default it has (empty for one unset by default)', () => {
    const defaults = configDefaults() as Record<string, unknown>;
    for (const name of CONFIG_VARIABLES) {
      expect([name, listed.get(name)]).toEqual([name, defaults[name] === undefined ? '' : String(defaults[name])]);
    }
  });

  it('explains each: a comment line right above it, or above the group it is listed with', () => {
    for (const [i, line] of lines.entries()) {
      if (!/^# [A-Z][A-Z0-9_]*=/.test(line)) continue;
      let j = i - 1;
      while (j >= 0 && /^# [A-Z][A-Z0-9_]*=/.test(lines[j])) j--;
      expect([line, lines[j]]).toEqual([line, expect.stringMatching(/^# \S/)]);
    }
  });

  it('is a valid configuration with every line uncommented as it stands', () => {
    const env = Object.fromEntries([...listed].map(([k, v]) => [k, v]));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});
