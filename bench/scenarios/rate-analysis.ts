import { Client } from 'pg';
import { openDatabase } from '../../src/platform/db/client';
import { createLogger } from '../../src/platform/logger';
import { createJobQueue, queuePrefix } from '../../src/platform/queue';
import { appQueues } from '../../src/queues';
import { importReferenceData } from '../../src/modules/tariffs/importer';
import type { BenchContext, Scenario } from '../types';
import { newUser, seedProperties } from './seed';
import { waitUntil } from '../../test/helpers/eventually';

const OWNER_PROPERTIES = 10_000;
/** City of Gladstone, Michigan: C1 commercial flat tariff; the ZIP's utility has two more commercial tariffs. */
const GLADSTONE_C1 = '539f6a63ec4f024411ec8eb1';

async function countSince(databaseUrl: string, ownerEmail: string, since: Date): Promise<number> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>(
      `select count(distinct ra.property_id) as n from rate_analyses ra join users u on u.id = ra.owner_id
       where u.email = $1 and ra.analyzed_at > $2`,
      [ownerEmail, since],
    );
    return Number(rows[0].n);
  } finally {
    await c.end();
  }
}

/**
 * On the Procfile roles: an owner with 10,000 priced properties; the tariff data
 * is re-imported (not timed), then the clock runs from the scheduler's sweep job until every
 * property has a new analysis (the sweep queues the owner's job; the worker process re-prices and
 * re-analyses each property).
 */
export const rateAnalysisScenarios: Scenario[] = [
  {
    kind: 'custom',
    name: `rate analysis of an owner with ${OWNER_PROPERTIES.toLocaleString('en-US')} properties after a tariff re-import (sweep to last analysis)`,
    perMode: true,
    modes: ['postgres'],
    run: async (ctx?: BenchContext) => {
      if (!ctx?.databaseUrl || !ctx.redis) throw new Error('needs the Procfile roles (PostgreSQL and Redis)');
      const { auth, email } = await newUser(ctx, 'reanalysis');
      await seedProperties(ctx, auth, OWNER_PROPERTIES, (i) => ({
        name: `Shop ${i}`,
        address: `${i} Main St`,
        city: 'Gladstone',
        state: 'MI',
        zip_code: '49837',
        property_type: 'commercial',
        tariff_id: GLADSTONE_C1,
        monthly_usage_kwh: 500 + (i % 200) * 50,
      }));
      // The analyses queued by the creates finish first, so they do not count.
      const seeded = new Date(0);
      await waitUntil(
        'the analyses of the seeded properties',
        async () => (await countSince(ctx.databaseUrl!, email, seeded)) >= OWNER_PROPERTIES,
        600_000,
        250,
      );

      const database = await openDatabase({ databaseUrl: ctx.databaseUrl, poolSize: 2 });
      const logger = createLogger('warn');
      const queue = createJobQueue({ definitions: appQueues, redisUrl: ctx.redis.url, prefix: queuePrefix(ctx.redis.keyPrefix), logger });
      try {
        await importReferenceData(database.db);
        const started = new Date();
        await queue.enqueue('tariff-import-sweep', {}, { jobId: `bench-sweep-${started.getTime()}` });
        await waitUntil(
          'every property re-analysed',
          async () => (await countSince(ctx.databaseUrl!, email, started)) >= OWNER_PROPERTIES,
          600_000,
          250,
        );
        const seconds = (Date.now() - started.getTime()) / 1000;
        return { value: Number(seconds.toFixed(1)), unit: 's' };
      } finally {
        await queue.close();
        await database.close();
      }
    },
  },
];
