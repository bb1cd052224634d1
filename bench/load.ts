import autocannon from 'autocannon';
import http from 'node:http';

export interface LoadRequest {
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * Whether the answer may come compressed: the request accepts gzip (as browsers and fetch send it).
 * autocannon's client appends every answer's body to a string (`req.body += data`): decoding
 * compressed bytes as UTF-8 would make the load generator, not the server, the limit.
 */
function answersCompressed(req: LoadRequest): boolean {
  return Object.entries(req.headers ?? {}).some(([name, value]) => name.toLowerCase() === 'accept-encoding' && /\bgzip\b/i.test(value));
}

/**
 * Drives one request shape for `seconds` at `connections` (closed loop) and returns throughput
 * and latency: with autocannon, or, for an answer that may come compressed, with the node:http
 * closed loop of loadMix, which reads the body without decoding it (answersCompressed says why).
 */
export async function load(baseUrl: string, req: LoadRequest, seconds: number, connections = 10): Promise<LoadResult> {
  if (answersCompressed(req)) {
    return loadMix(baseUrl, () => ({ ...req, kind: 'load' }), { seconds, connections });
  }
  const result = await autocannon({
    url: baseUrl + req.path,
    method: req.method ?? 'GET',
    headers: { ...(req.body ? { 'content-type': 'application/json' } : {}), ...req.headers },
    body: req.body,
    connections,
    duration: seconds,
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** One request of a mix, with the kind its figures are grouped under. */
export interface MixRequest extends LoadRequest {
  kind: string;
}

export interface MixResult extends LoadResult {
  /** Requests answered (any status) and errors, over `seconds` from the first send to the last answer. */
  answered: number;
  seconds: number;
  /** With a rate: the rate requests actually left at (sent / sending window). */
  sentPerSec: number;
  /** Answers by status code ("error" for a request without an answer). */
  statuses: Record<string, number>;
  /** Latencies of every answered request, ms, sorted. */
  latencies: number[];
  byKind: Record<string, { count: number; p50: number; p99: number; non2xx: number }>;
  /** The first few non-2xx answers or errors, for the log. */
  failures: string[];
}

/** Nearest-rank percentile of sorted values, to 0.1 ms. */
export function percentileOf(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Number(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))].toFixed(1));
}

/** Options of a mix run (loadMix, loadMixSplit). */
export interface MixOptions {
  seconds: number;
  /** Closed loop: senders; open loop: the most sockets per server. */
  connections: number;
  rate?: number;
  /** Sees each answer's request and headers (e.g. a Server-Timing header the service sets). */
  inspect?: (req: MixRequest, headers: http.IncomingHttpHeaders) => void;
}

/**
 * Drives a mix of requests, `next(k)` giving the k-th (each may carry a body of its own), over
 * keep-alive node:http connections to `baseUrl`.
 *
 * - Closed loop (no `rate`): `connections` senders, each sending its next request once the last
 *   was answered, for `seconds`: the throughput the server sustains.
 * - Open loop (`rate`): request k is due at k / rate s, evenly spaced, and leaves then whatever the
 *   answers before it did, over at most `connections` sockets. Its latency counts from when it was
 *   due, so time queued behind a slow server (or waiting in the client for a free socket) is in
 *   the figure. (autocannon's overallRate instead sends each connection's share of a second back
 *   to back at the start of the second, which measures bursts, not a rate.)
 */
export async function loadMix(baseUrl: string, next: (k: number) => MixRequest, opts: MixOptions): Promise<MixResult> {
  const [result] = await loadMixSplit([baseUrl], next, () => 0, opts);
  return result;
}

/**
 * loadMix over several servers, as a load balancer in front of them deals one stream: request k
 * of the stream goes to `baseUrls[route(k)]`, one open-loop stream at `rate` in all, evenly
 * spaced (a closed loop runs on one server). One result per server (its requests' figures), in
 * `baseUrls` order.
 */
export async function loadMixSplit(
  baseUrls: string[],
  next: (k: number) => MixRequest,
  route: (k: number) => number,
  opts: MixOptions,
): Promise<MixResult[]> {
  if (opts.rate === undefined && baseUrls.length !== 1) throw new Error('a closed loop runs on one server');
  const targets = baseUrls.map((baseUrl) => ({
    baseUrl,
    agent: new http.Agent({ keepAlive: true, maxSockets: opts.connections }),
    latencies: [] as number[],
    perKind: new Map<string, { latencies: number[]; non2xx: number }>(),
    statuses: {} as Record<string, number>,
    failures: [] as string[],
    non2xx: 0,
    errors: 0,
    sent: 0,
    lastAnswer: 0,
  }));
  let k = 0;

  const send = (target: (typeof targets)[number], req: MixRequest, dueAt: number) =>
    new Promise<void>((resolve) => {
      const startAt = Math.min(dueAt, performance.now());
      target.sent++;
      const kind = target.perKind.get(req.kind) ?? { latencies: [], non2xx: 0 };
      target.perKind.set(req.kind, kind);
      const fail = (what: string) => {
        if (target.failures.length < 10) target.failures.push(`${req.kind} ${req.method ?? 'GET'} ${req.path}: ${what}`);
      };
      const r = http.request(
        new URL(req.path, target.baseUrl),
        {
          method: req.method ?? 'GET',
          agent: target.agent,
          timeout: 30_000,
          headers: {
            ...(req.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(req.body) } : {}),
            ...req.headers,
          },
        },
        (res) => {
          opts.inspect?.(req, res.headers);
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => {
            if (!ok) chunks.push(c);
          });
          res.on('end', () => {
            const ms = performance.now() - startAt;
            target.lastAnswer = performance.now();
            target.latencies.push(ms);
            kind.latencies.push(ms);
            target.statuses[status] = (target.statuses[status] ?? 0) + 1;
            if (!ok) {
              target.non2xx++;
              kind.non2xx++;
              fail(`${status} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`);
            }
            resolve();
          });
        },
      );
      r.on('timeout', () => r.destroy(new Error('no answer within 30 s')));
      r.on('error', (err) => {
        target.errors++;
        target.statuses.error = (target.statuses.error ?? 0) + 1;
        fail(err.message);
        resolve();
      });
      r.end(req.body);
    });

  const started = performance.now();
  let sendingWindow = opts.seconds;
  if (opts.rate === undefined) {
    const until = started + opts.seconds * 1000;
    const [target] = targets;
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (performance.now() < until) await send(target, next(k++), performance.now());
      }),
    );
  } else {
    const total = Math.max(1, Math.round(opts.rate * opts.seconds));
    const inFlight: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      const dueAt = started + (i * 1000) / opts.rate;
      const wait = dueAt - performance.now();
      if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
      const n = k++;
      inFlight.push(send(targets[route(n)], next(n), dueAt));
    }
    sendingWindow = (performance.now() - started) / 1000 + 1 / opts.rate;
    await Promise.all(inFlight);
  }
  return targets.map((target) => {
    target.agent.destroy();
    const seconds = (Math.max(target.lastAnswer, started) - started) / 1000;
    const latencies = target.latencies.sort((a, b) => a - b);
    const byKind: MixResult['byKind'] = {};
    for (const [name, v] of target.perKind) {
      v.latencies.sort((a, b) => a - b);
      byKind[name] = {
        count: v.latencies.length,
        p50: percentileOf(v.latencies, 50),
        p99: percentileOf(v.latencies, 99),
        non2xx: v.non2xx,
      };
    }
    return {
      reqPerSec: seconds > 0 ? latencies.length / seconds : 0,
      p50: percentileOf(latencies, 50),
      p99: percentileOf(latencies, 99),
      non2xx: target.non2xx,
      errors: target.errors,
      answered: latencies.length,
      seconds,
      sentPerSec: opts.rate === undefined ? (seconds > 0 ? target.sent / seconds : 0) : target.sent / Math.max(sendingWindow, 1e-3),
      statuses: target.statuses,
      latencies,
      byKind,
      failures: target.failures,
    };
  });
}
