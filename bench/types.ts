import type { LoadRequest } from './load';

export interface BenchContext {
  url: string;
  mode: 'embedded' | 'postgres';
  /** PostgreSQL mode: the bench database's URL (for set-up and checks a scenario cannot make over HTTP). */
  databaseUrl?: string;
  /** PostgreSQL mode with the Procfile roles: Redis URL and the key prefix the processes share. */
  redis?: { url: string; keyPrefix: string };
  /** JSON helper against the running server; throws on a non-2xx answer. */
  call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>, form?: boolean): Promise<T>;
}

/**
 * The figures of issue 48 item 1, on PostgreSQL with the Procfile roles (the `postgres` mode). In
 * the embedded mode every row is information.
 */
export const TARGETS = {
  /** Every interactive endpoint's p99 at 10 connections, ms. */
  interactiveP99Ms: 150,
  /** Tenant billing of 10,000 units (POST /billing/calculate-rubs): p99, ms. */
  tenantBillingP99Ms: 500,
  /** Webhooks acknowledged at this rate (events/s) with this p99 (ms), and applied in order. */
  webhookRate: 500,
  webhookAckP99Ms: 250,
  /** A full re-audit of 192,000 bills, s. */
  fullReAuditS: 300,
  /** A full analytics recompute for 10,000 properties, s. */
  fullAnalyticsRecomputeS: 60,
} as const;

/** One HTTP load scenario: prepare() creates what it needs and returns the request to repeat. */
export interface HttpScenario {
  kind: 'http';
  name: string;
  /** The p99 it is held to, ms: TARGETS.interactiveP99Ms unless set. */
  p99BelowMs?: number;
  /** Closed-loop connections (10 unless set). */
  connections?: number;
  prepare(ctx: BenchContext): Promise<LoadRequest>;
}

/** What a custom scenario measured; `target` and `met` only for a figure of TARGETS (else the row is information). */
export interface Measured {
  value: number;
  unit: string;
  target?: string;
  met?: boolean;
}

/** A measurement that is not an HTTP load (engine throughput, import speed, a job's run). */
export interface CustomScenario {
  kind: 'custom';
  name: string;
  /** Runs once per bench run, not per database mode, unless perMode is set. */
  perMode?: boolean;
  /** With perMode: only in these modes (a scenario that needs the Procfile roles runs in the postgres mode only). */
  modes?: Array<'embedded' | 'postgres'>;
  run(ctx: BenchContext | undefined): Promise<Measured>;
}

export type Scenario = HttpScenario | CustomScenario;
