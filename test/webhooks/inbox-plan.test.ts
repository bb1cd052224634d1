import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { rowsOf } from '../../src/platform/db/errors';
import { APPEND_TO_STREAMS } from '../../src/modules/webhooks/repository';
import { nodesOf, type PlanNode } from '../helpers/plans';

const arrival = (n: number) => JSON.stringify([{
  ord: 0, id: `plan-probe-${n}`, sha: `probe-sha-${n}`, raw: Buffer.from('{}').toString('base64'), bytes: 2,
  received_at: '2026-11-24T12:00:00Z', conn: 'plan-probe', event: 'unit.updated', rtype: 'unit', ts: '2026-11-24T12:00:00Z',
}]);

/**
 * The inbox statement runs prepared, and a prepared statement keeps the generic plan it made
 * until its tables are analyzed: a plan made while webhook_events was empty must still find
 * earlier bodies by index once the table holds thousands of events (on a server with autovacuum
 * off, nothing analyzes it). Fails with the NOT EXISTS form, which is planned as a hash anti
 * join over a sequential scan of the nearly empty table.
 */
describe('webhook inbox statement plan', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.stop());

  it('probes the body-hash index in a generic plan made while the table was empty, after the table grew', async () => {
    const { db } = t.deps.database;
    const nodes = await db.transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare inbox_plan_probe(jsonb) as ${APPEND_TO_STREAMS}`));
      // The first execution makes the generic plan, with the table empty.
      expect(rowsOf(await tx.execute(sql.raw(`execute inbox_plan_probe('${arrival(0)}')`)))).toHaveLength(1);
      await tx.execute(sql`
        insert into webhook_events (id, body_sha256, raw_body, body_bytes, received_at, connection_id, event, resource_type, event_timestamp, seq, status)
        select 'grown-' || g, 'grown-sha-' || g, convert_to(repeat('x', 600), 'UTF8'), 600, now(), 'grown', 'unit.updated', 'unit', now(), g, 'success'
        from generate_series(1, 20000) g`);
      const [{ 'QUERY PLAN': plan }] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        await tx.execute(sql.raw(`explain (format json) execute inbox_plan_probe('${arrival(1)}')`)));
      await tx.execute(sql`deallocate inbox_plan_probe`);
      return nodesOf(plan[0].Plan);
    });
    const onEvents = nodes.filter((n) => n['Relation Name'] === 'webhook_events' && n['Node Type'] !== 'ModifyTable');
    expect(onEvents.map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`.trim()))
      .toEqual([expect.stringMatching(/^Index (Only )?Scan webhook_events_body_sha256_key$/)]);
  });
});
