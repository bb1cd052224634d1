import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app';
import { SECRET, checkState, linkConnections, makeStream, sendStreams, waitForApplied } from '../faults/stream';
import { FakePmsProvider } from '../helpers/fake-pms';

/**
 * The fault tests' stream (test/faults) without the faults, on whatever this suite runs on:
 * the embedded default (PGlite, in-process jobs) or PostgreSQL and Redis. Every event is
 * delivered twice; each is still applied once, in its connection's order.
 */
describe('webhook streams: 20 connections, every event delivered twice', () => {
  let t: TestApp;
  let server: http.Server;
  let url: string;
  // The provider the connections are bound through; the units come from the events only (no import).
  const provider = new FakePmsProvider();
  provider.servesUnits = false;
  beforeAll(async () => {
    const providerUrl = await provider.start();
    t = await createTestApp({ jobs: true, env: { PMS_WEBHOOK_SECRET: SECRET, PMS_API_URL: providerUrl, PMS_API_KEY: 'k' } });
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.stop();
    await provider.stop();
  });

  it('applies every event exactly once, in order; duplicates change nothing', async () => {
    const connections = await linkConnections({ url }, 'dup', 20, provider);
    const streams = makeStream(connections, 15);
    const report = await sendStreams(url, streams, () => undefined, 100, 2);
    expect(report.statuses).toEqual({ 200: 600 });
    const state = await waitForApplied(t, 'dup', 300, 40_000);
    checkState(state, streams);
  });
});
