import type { Scenario } from '../types';
import { readUrdbLines } from '../../src/modules/tariffs/bundled';
import { classifyTariff } from '../../src/modules/tariffs/tariff-class';
import { classInputOf } from '../../src/modules/tariffs/urdb.normalize';
import { REFERENCE_DIR } from '../../src/modules/utilities/reference';

/** What classifying every bundled record adds to an import (the file is read and parsed first, untimed). */
async function classifyAll() {
  const records = readUrdbLines(REFERENCE_DIR).flatMap((l) => (l.record ? [l.record] : []));
  const started = process.hrtime.bigint();
  let general = 0;
  for (const r of records) if (classifyTariff(classInputOf(r)).purpose === 'general') general++;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (general === 0) throw new Error('no record classified');
  return { value: Number(seconds.toFixed(2)), unit: `s for ${records.length.toLocaleString('en-US')} records` };
}

// "electric" is the broadest realistic partial: it matches about 500 utility names and 2,300 tariffs.
export const tariffScenarios: Scenario[] = [
  {
    kind: 'http',
    name: 'GET /tariffs/search?zip_code=94103&sector=commercial',
    prepare: async () => ({ path: '/api/v1/tariffs/search?zip_code=94103&sector=commercial' }),
  },
  {
    kind: 'http',
    name: 'GET /tariffs/search?zip_code=94103&sector=commercial&purpose=general&service_type=bundled&voltage=secondary',
    prepare: async () => ({
      path: '/api/v1/tariffs/search?zip_code=94103&sector=commercial&purpose=general&service_type=bundled&voltage=secondary',
    }),
  },
  {
    kind: 'custom',
    name: 'tariff classification of every bundled URDB record (service type, voltage, purpose), as the import does it',
    run: classifyAll,
  },
  {
    kind: 'http',
    name: 'GET /tariffs/search?utility_name=electric',
    prepare: async () => ({ path: '/api/v1/tariffs/search?utility_name=electric' }),
  },
  {
    kind: 'http',
    name: 'GET /tariffs/stats',
    prepare: async () => ({ path: '/api/v1/tariffs/stats' }),
  },
];
