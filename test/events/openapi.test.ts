/** The OpenAPI document lists the webhook-endpoints operations and, as 3.1 `webhooks`, every event type's signed body. */
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { strictSchemaProblems, type OpenApiDocument } from '../helpers/openapi-strict';
import { EVENT_TYPES } from '../../src/modules/events/public';

describe('/openapi.json: webhook endpoints and events (issue 51)', () => {
  let t: TestApp;
  let doc: OpenApiDocument & {
    webhooks?: Record<
      string,
      {
        post: {
          requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
          parameters: Array<{ name: string; in: string }>;
        };
      }
    >;
  };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await request(t.app).get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.stop());

  it("is valid to the strict validator, with the endpoints' operations and one webhook per event type", async () => {
    const { Validator } = (await import('@seriousme/openapi-schema-validator')) as unknown as {
      Validator: new () => { validate(spec: unknown): Promise<{ valid: boolean; errors?: unknown }> };
    };
    expect(await new Validator().validate(doc)).toEqual({ valid: true });
    expect(strictSchemaProblems(doc)).toEqual([]);
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/api/v1/webhook-endpoints'))
        .sort(),
    ).toEqual([
      '/api/v1/webhook-endpoints',
      '/api/v1/webhook-endpoints/{id}',
      '/api/v1/webhook-endpoints/{id}/deliveries',
      '/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/replay',
      '/api/v1/webhook-endpoints/{id}/rotate-secret',
      '/api/v1/webhook-endpoints/{id}/test',
    ]);
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    const finding = doc.webhooks!['audit.finding.created']!.post;
    expect(finding.parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
      'header webhook-id',
      'header webhook-timestamp',
      'header webhook-signature',
    ]);
    expect(Object.keys(finding.requestBody.content['application/json']!.schema.properties)).toEqual(['type', 'timestamp', 'data']);
  });
});
