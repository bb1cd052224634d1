/**
 * Issue 51 item 1: the typed client's README example (log in, create a property, record a bill,
 * read its audit) runs as printed against a live server: the test app on its database, listening
 * on an ephemeral port, called through the client package's source.
 */
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { createTestApp, type TestApp } from '../helpers/app';
import { closeServer, listenLocally } from '../helpers/local-server';
import { createClient } from '@energy-cost-api/client';
import { auditABill } from '../../clients/typescript/examples/audit-a-bill';

const CLIENT_DIR = path.join(__dirname, '..', '..', 'clients', 'typescript');

describe('clients/typescript README example', () => {
  let t: TestApp;
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
    server = http.createServer(t.app);
    baseUrl = await listenLocally(server);
  });
  afterAll(async () => {
    await closeServer(server);
    await t.stop();
  });

  it('prints examples/audit-a-bill.ts as it is', () => {
    const readme = fs.readFileSync(path.join(CLIENT_DIR, 'README.md'), 'utf8');
    const example = fs.readFileSync(path.join(CLIENT_DIR, 'examples', 'audit-a-bill.ts'), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```\n');
  });

  it("finds June 2026's $40.00 water bill $8.49 over the $31.51 its tariff gives", async () => {
    const audit = await auditABill(baseUrl, 'pat@example.com', 'Str0ngPassword');
    // 3 x 1.30 + 7 x 1.80 + 2 x 2.55 + 9.91 = 31.51; 40.00 - 31.51 = 8.49; 8.49 / 31.51 = 26.9 %
    expect(audit).toMatchObject({ status: 'variance', billed_amount: 40, expected_amount: 31.51, variance: 8.49, variance_percent: 26.9 });
    expect(audit.findings).toEqual([expect.objectContaining({ reason: 'price_variance', amount_at_issue: 8.49, status: 'open' })]);
  });

  it("types what the server answers: an error has the contract's body", async () => {
    const { data, error, response } = await createClient(baseUrl, { token: 'not-a-token' }).GET('/api/v1/auth/me');
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expect(error).toEqual({ detail: expect.any(String), code: 'not_authenticated', request_id: expect.any(String) });
  });
});
