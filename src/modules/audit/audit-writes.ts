import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { auditFindings, billAudits, meterAudits } from './tables';
import type { BillAudit } from './audit.types';

type StoredAudits = Array<{ ownerId: string; propertyId: string; meterId: string; audits: BillAudit[] }>;

/** The bill_audits rows of meters' audits, as jsonb_to_recordset reads them. */
function auditRecords(stored: StoredAudits) {
  return stored.flatMap((m) =>
    m.audits.map((a) => ({
      bill_id: a.billId,
      owner_id: m.ownerId,
      property_id: m.propertyId,
      meter_id: m.meterId,
      status: a.status,
      reason: a.reason,
      expected_cents: a.expectedCents,
      variance_cents: a.varianceCents,
      variance_percent: a.variancePercent,
      tariff_id: a.tariffId,
      expected_lines: a.expectedLines,
      basis: a.basis,
      basis_note: a.basisNote,
    })),
  );
}

/** The audit_findings rows of meters' audits, as jsonb_to_recordset reads them. */
function findingRecords(stored: StoredAudits) {
  return stored.flatMap((m) =>
    m.audits.flatMap((a) =>
      a.findings.map((f) => ({
        owner_id: m.ownerId,
        property_id: m.propertyId,
        meter_id: m.meterId,
        bill_id: f.billId,
        reason: f.reason,
        severity: f.severity,
        amount_cents: f.amountCents,
        message: f.message,
        details: f.details,
      })),
    ),
  );
}

/**
 * The one statement storing meters' audits: claims the meters not read later, upserts their bills'
 * audits and findings, and returns the meters claimed and the findings inserted.
 */
function storeStatement(stored: StoredAudits, readAt: string, when: string): SQL {
  const audits = auditRecords(stored);
  const findings = findingRecords(stored);
  return sql`
          with claimed as (
            insert into ${meterAudits} (meter_id, read_at)
            select m.id, ${readAt}::timestamptz from jsonb_array_elements_text(${JSON.stringify(stored.map((m) => m.meterId))}::jsonb) as m(id)
            on conflict (meter_id) do update set read_at = excluded.read_at where ${meterAudits}.read_at <= excluded.read_at
            returning meter_id
          ),
          audits as (
            select * from jsonb_to_recordset(${JSON.stringify(audits)}::jsonb) as r(bill_id text, owner_id text, property_id text, meter_id text,
              status text, reason text, expected_cents bigint, variance_cents bigint, variance_percent numeric, tariff_id text, expected_lines jsonb,
              basis text, basis_note text)
            where r.meter_id in (select meter_id from claimed)
          ),
          findings as (
            select * from jsonb_to_recordset(${JSON.stringify(findings)}::jsonb) as r(owner_id text, property_id text, meter_id text, bill_id text,
              reason text, severity text, amount_cents bigint, message text, details jsonb)
            where r.meter_id in (select meter_id from claimed)
          ),
          audits_stored as (
            insert into ${billAudits} (bill_id, owner_id, property_id, meter_id, status, reason, expected_cents, variance_cents, variance_percent,
              tariff_id, expected_lines, basis, basis_note, audited_at)
            select bill_id, owner_id, property_id, meter_id, status, reason, expected_cents, variance_cents, variance_percent,
              tariff_id, expected_lines, basis, basis_note, ${when}::timestamptz from audits
            on conflict (bill_id) do update set status = excluded.status, reason = excluded.reason, expected_cents = excluded.expected_cents,
              variance_cents = excluded.variance_cents, variance_percent = excluded.variance_percent, tariff_id = excluded.tariff_id,
              expected_lines = excluded.expected_lines, basis = excluded.basis, basis_note = excluded.basis_note,
              audited_at = excluded.audited_at
          ),
          findings_gone as (
            delete from ${auditFindings} f
            -- An array, not a join with the CTE: the planner then looks the bills up in the index (a join scanned the table).
            where f.bill_id = any(array(select bill_id from audits)) and f.status = 'open'
              and not exists (select 1 from findings k where k.bill_id = f.bill_id and k.reason = f.reason)
          ),
          findings_stored as (
            insert into ${auditFindings} as f (owner_id, property_id, meter_id, bill_id, reason, severity, amount_cents, message, details,
              created_at, updated_at)
            select owner_id, property_id, meter_id, bill_id, reason, severity, amount_cents, message, details, ${when}::timestamptz, ${when}::timestamptz
            from findings
            on conflict (bill_id, reason) do update set severity = excluded.severity, amount_cents = excluded.amount_cents,
              message = excluded.message, details = excluded.details, updated_at = excluded.updated_at
            where f.status = 'open'
              and (f.severity, f.amount_cents, f.message, f.details) is distinct from (excluded.severity, excluded.amount_cents, excluded.message, excluded.details)
            -- xmax is 0 on a row this statement inserted (an update of a conflicting row sets it).
            returning f.id, f.bill_id, f.reason, (f.xmax = 0) as inserted
          )
          select meter_id, null::text as bill_id, null::text as reason, null::text as finding_id from claimed
          union all select null, bill_id, reason, id from findings_stored where inserted`;
}

/** Writing meters' audits: their rows and findings, in one statement. */
export function auditWrites(db: Db) {
  return {
    /**
     * Stores meters' audits read at `readAt`, in one statement (so atomically): each bill's audit row,
     * its findings (a finding already resolved keeps its resolution; an open one the audit no longer
     * finds goes; a finding that did not change is not rewritten, since each write marks the
     * property's health for a recompute). A meter whose stored audit read it later is left as it is.
     * Rows go as JSON parameters expanded by jsonb_to_recordset (as bill imports do): thousands of
     * bind parameters cost more to build than the statement costs to run. Returns the meters stored.
     * `after` runs in the same transaction with what was stored, and the findings written new (keys
     * `bill id|reason`, values their ids): the run's notification and events commit with the findings
     * they report, or none does.
     */
    async store(
      stored: StoredAudits,
      readAt: string,
      at: Date,
      after?: (result: { meters: Set<string>; newFindings: Map<string, string> }, executor: Executor) => Promise<void>,
    ): Promise<Set<string>> {
      if (stored.length === 0) return new Set();
      // Meters in the order given (id order): concurrent statements lock their rows in the same order.
      return db.transaction(async (tx) => {
        const rows = rowsOf<{ meter_id: string | null; bill_id: string | null; reason: string | null; finding_id: string | null }>(
          await tx.execute(storeStatement(stored, readAt, at.toISOString())),
        );
        const meters = new Set(rows.flatMap((r) => (r.meter_id === null ? [] : [r.meter_id])));
        const newFindings = new Map(
          rows.flatMap((r) => (r.bill_id === null ? [] : [[`${r.bill_id}|${r.reason}`, r.finding_id!] as const])),
        );
        await after?.({ meters, newFindings }, tx);
        return meters;
      });
    },
  };
}
