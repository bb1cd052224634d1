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

/** What a user feels (issue 28): every endpoint's p99 at 10 connections, in ms. */
export const USER_P99_MS = 50;

export interface Target {
  /** The 99th percentile latency strictly below this many ms. */
  p99BelowMs?: number;
  /** Throughput at least this fraction of GET /health measured in the same run. */
  minRatioToHealth?: number;
  /** Median latency at most this many ms. */
  maxMedianMs?: number;
  /** The median must be strictly below this many ms (an issue that says "< N ms"). */
  medianBelowMs?: number;
  /** Median latency at most factor x another scenario's median. */
  maxMedianVs?: { scenario: string; factor: number };
  /** Throughput at least this fraction of another scenario's, measured earlier in the same run. */
  minThroughputVs?: { scenario: string; fraction: number };
  /**
   * Throughput at least this fraction of a bare Express app answering a constant JSON body,
   * measured right before on the same machine (the request path's floor), reported as a row of
   * its own for `bareIssue`.
   */
  minRatioToBare?: number;
  bareIssue?: number;
}

/** One HTTP load scenario: prepare() creates what it needs and returns the request to repeat. */
export interface HttpScenario {
  kind: 'http';
  name: string;
  issue: number;
  target: Target;
  connections?: number;
  prepare(ctx: BenchContext): Promise<LoadRequest>;
}

/** A measurement that is not an HTTP load (engine throughput, import speed). */
export interface CustomScenario {
  kind: 'custom';
  name: string;
  issue: number;
  /** Runs once per bench run, not per database mode, unless perMode is set. */
  perMode?: boolean;
  /** With perMode: only in these modes (a figure set for the Procfile roles runs in the postgres mode only). */
  modes?: Array<'embedded' | 'postgres'>;
  run(ctx: BenchContext | undefined): Promise<{ value: number; unit: string; target: string; met: boolean | null }>;
}

export type Scenario = HttpScenario | CustomScenario;
