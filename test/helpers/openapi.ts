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

interface ExampleSchema {
  example?: unknown;
  examples?: unknown;
  $ref?: string;
  items?: ExampleSchema;
}
interface ExampleMedia {
  schema?: ExampleSchema;
  example?: unknown;
  examples?: unknown;
}
interface ExampleOperation {
  requestBody?: { content: Record<string, ExampleMedia> };
  responses: Record<string, { content?: Record<string, ExampleMedia> }>;
}
/** An OpenAPI document, as far as the examples check reads it. */
export interface ExamplesDoc {
  paths: Record<string, Record<string, ExampleOperation>>;
  components?: { schemas?: Record<string, ExampleSchema> };
}

/**
 * The operations of `doc` (of the paths `include` keeps) that lack an example of a success answer
 * with a body, or of their request body: `METHOD /path: response` or `: body`. An example counts on
 * the media, on its schema, on the items of an array, or behind a $ref into the components.
 * Also answers how many operations it checked.
 */
export function operationsWithoutExamples(doc: ExamplesDoc, include: (path: string) => boolean = () => true) {
  const hasExample = (schema: ExampleSchema | undefined, seen = new Set<string>()): boolean => {
    if (!schema) return false;
    if (schema.example !== undefined || schema.examples !== undefined) return true;
    if (schema.$ref) {
      const name = schema.$ref.split('/').pop()!;
      if (seen.has(name)) return false;
      seen.add(name);
      return hasExample(doc.components?.schemas?.[name], seen);
    }
    return hasExample(schema.items, seen);
  };
  const mediaHasExample = (m: ExampleMedia) => m.example !== undefined || m.examples !== undefined || hasExample(m.schema);
  const missing: string[] = [];
  let checked = 0;
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (!include(path)) continue;
    for (const [method, op] of Object.entries(operations)) {
      checked += 1;
      const name = `${method.toUpperCase()} ${path}`;
      const successes = Object.entries(op.responses).filter(([code]) => code.startsWith('2') && code !== '204');
      if (!successes.every(([, r]) => Object.values(r.content ?? {}).some(mediaHasExample))) missing.push(`${name}: response`);
      if (op.requestBody && !Object.values(op.requestBody.content).some(mediaHasExample)) missing.push(`${name}: body`);
    }
  }
  return { missing, checked };
}
