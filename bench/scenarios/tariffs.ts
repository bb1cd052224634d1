import type { Scenario } from '../types';

// "electric" is the broadest realistic partial: it matches about 500 utility names and 2,300 tariffs.
export const tariffScenarios: Scenario[] = [
  {
    kind: 'http',
    name: 'GET /tariffs/search?zip_code=94103&sector=commercial',
    issue: 3,
    target: { minRatioToHealth: 0.5, minRatioToBare: 0.4, bareIssue: 13 },
    prepare: async () => ({ path: '/api/v1/tariffs/search?zip_code=94103&sector=commercial' }),
  },
  {
    kind: 'http',
    name: 'GET /tariffs/search?utility_name=electric',
    issue: 3,
    target: { maxMedianMs: 10 },
    // A latency target: one connection, so the median is service time, not queueing behind others.
    connections: 1,
    prepare: async () => ({ path: '/api/v1/tariffs/search?utility_name=electric' }),
  },
  {
    kind: 'http',
    name: 'GET /tariffs/stats',
    issue: 3,
    target: { minRatioToHealth: 0.8 },
    prepare: async () => ({ path: '/api/v1/tariffs/stats' }),
  },
];
