/**
 * Issue 51 item 1: every operation has a stable operationId, derived from its method and path alone
 * (src/modules/docs/document.ts), and the document the client is generated from in-process is the
 * one GET /openapi.json serves.
 */
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { buildServiceOpenApiDocument } from '../../src/openapi-document';
import { assignOperationIds, operationIdOf, type OpenApiDocument } from '../../src/modules/docs/document';

describe('operationIdOf', () => {
  it('is the method, then each segment after /api/v1 in PascalCase, a parameter as By<Name>', () => {
    expect(operationIdOf('get', '/api/v1/pm/properties/{id}/bills')).toBe('getPmPropertiesByIdBills');
    expect(operationIdOf('post', '/api/v1/auth/login')).toBe('postAuthLogin');
    expect(operationIdOf('get', '/api/v1/billing/history/{property_id}')).toBe('getBillingHistoryByPropertyId');
    expect(operationIdOf('get', '/api/v1/tariffs/custom/{id}/versions')).toBe('getTariffsCustomByIdVersions');
    expect(operationIdOf('get', '/api/v1/billing/calculations/{id}/export.csv')).toBe('getBillingCalculationsByIdExportCsv');
    expect(operationIdOf('post', '/api/webhooks/pms')).toBe('postApiWebhooksPms');
    expect(operationIdOf('get', '/health')).toBe('getHealth');
    expect(operationIdOf('get', '/')).toBe('getRoot');
  });

  it('refuses a document where two operations would share one', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/api/v1/a-b': { get: { responses: {} } },
        '/api/v1/a_b': { get: { responses: {} } },
      },
    } as unknown as OpenApiDocument;
    expect(() => assignOperationIds(doc)).toThrow('operationId getAB derives from both GET /api/v1/a-b and GET /api/v1/a_b');
  });
});

describe('the operations of /openapi.json', () => {
  let t: TestApp;
  let served: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp();
    served = (await request(t.app).get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.stop());

  it('each has the operationId of its method and path, none shared', () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries(served.paths ?? {})) {
      for (const [method, operation] of Object.entries(item as Record<string, { operationId?: string }>)) {
        expect(operation.operationId).toBe(operationIdOf(method, path));
        ids.push(operation.operationId!);
      }
    }
    expect(ids.length).toBeGreaterThan(80);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is the document the client is generated from, built without a server or database', async () => {
    expect(JSON.parse(JSON.stringify(await buildServiceOpenApiDocument()))).toEqual(served);
  });
});
