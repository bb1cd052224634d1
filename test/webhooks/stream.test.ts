import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app';
import { SECRET, checkState, linkConnections, makeStream, sendStreams, waitForApplied } from '../faults/stream';

/**
 * The fault tests' stream (test/faults) without the faults, on whatever this suite runs on:
 * the embedded default (PGlite, in-process jobs) or PostgreSQL and Redis. Every event is
 * delivered twice; each is still applied once, in its connection's order.
 */
describe('webhook streams: 20 connections, every event delivered twice', () => {
  let t: TestApp;
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true, env: { PMS_WEBHOOK_SECRET: SECRET } });
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.stop();
  });

  it('applies every event exactly once, in order; duplicates change nothing', async () => {
    const connections = await linkConnections({ url }, 'dup', 20);
    const streams = makeStream(connections, 15);
    const report = await sendStreams(url, streams, () => undefined, 100, 2);
    expect(report.statuses).toEqual({ 200: 600 });
    const state = await waitForApplied(t, 'dup', 300, 40_000);
    checkState(state, streams);
  });
});
