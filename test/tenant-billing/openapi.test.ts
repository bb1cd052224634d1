import { useOpenApiDoc } from '../helpers/openapi';

describe('tenant billing in /openapi.json', () => {
  const op = useOpenApiDoc();

  it('lists every endpoint, each with an example of its answer (and of its body)', () => {
    const endpoints: Array<[string, string, number, string[]]> = [
      ['/api/v1/billing/config', 'post', 201, ['application/json']],
      ['/api/v1/billing/config/{id}', 'get', 200, ['application/json']],
      ['/api/v1/billing/calculate-rubs', 'post', 200, ['application/json']],
      ['/api/v1/billing/history/{property_id}', 'get', 200, ['application/json']],
      ['/api/v1/billing/calculations/{id}', 'get', 200, ['application/json']],
      ['/api/v1/billing/calculations/{id}/export.csv', 'get', 200, ['text/csv']],
      ['/api/v1/billing/calculations/{id}/statements/{unit_id}', 'get', 200, ['application/json', 'text/html']],
    ];
    for (const [path, method, status, types] of endpoints) {
      const o = op(path, method);
      expect(o).toBeDefined();
      const content = o!.responses[String(status)].content!;
      expect(Object.keys(content).sort()).toEqual([...types].sort());
      for (const type of types) {
        const schema = content[type].schema as { example?: unknown; items?: { example?: unknown } };
        expect(schema.example ?? schema.items?.example).toBeDefined();
      }
      if (method === 'post') expect(o!.requestBody!.content['application/json'].schema.example).toBeDefined();
    }
  });

  it('documents the error answers', () => {
    const calc = op('/api/v1/billing/calculate-rubs', 'post')!;
    // Issue 27 replaced the rule "the route's own errors" with "every status the route can answer": 415 and 503 were missing.
    // Issue 30 added 409: a re-bill of a calculation with charges posted to the PMS ledger.
    expect(Object.keys(calc.responses).sort()).toEqual(['200', '400', '401', '404', '409', '413', '415', '422', '429', '503']);
    expect(Object.keys(op('/api/v1/billing/config', 'post')!.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '404',
      '413',
      '415',
      '422',
      '429',
      '503',
    ]);
  });
});
