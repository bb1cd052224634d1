import autocannon from 'autocannon';

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

/** Drives one request shape with autocannon for `seconds` and returns throughput and latency. */
export async function load(baseUrl: string, req: LoadRequest, seconds: number, connections = 10): Promise<LoadResult> {
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
