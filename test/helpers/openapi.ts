import request from 'supertest';
import { createTestApp, type TestApp } from './app';

/** An operation of /openapi.json, as far as the tests read it. */
export interface OpenApiOperation {
  requestBody?: { content: Record<string, { schema: { example?: unknown } }> };
  responses: Record<string, { content?: Record<string, { schema: { example?: unknown } }> }>;
}

/**
 * Boots a test app for the enclosing describe block (beforeAll/afterAll) and reads its /openapi.json.
 * Returns a lookup of an operation by path and method, undefined when the document does not list it.
 */
export function useOpenApiDoc(): (path: string, method: string) => OpenApiOperation | undefined {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, OpenApiOperation>> };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await request(t.app).get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.stop());
  return (path, method) => doc.paths[path]?.[method];
}
