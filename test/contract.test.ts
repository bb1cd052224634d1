import crypto from 'node:crypto';
import request from 'supertest';
import type { ValidateFunction } from 'ajv';
import { createTestApp, type TestApp } from './helpers/app';
import { registerUser, type RegisteredTestUser } from './helpers/users';
import { seedTariffs } from './helpers/tariffs';
import { openApiAjv, pointer, strictSchemaProblems, type OpenApiDocument } from './helpers/openapi-strict';

/**
 * The contract test: every operation of /openapi.json, driven by the document itself. Valid
 * requests are generated from each operation's schemas by json-schema-faker (seeded, so a run
 * repeats); invalid ones change one thing of a valid one (a wrong type, a number out of range, a
 * NUL, a lone surrogate or a very long string, a missing required field, an unknown id, a body
 * that is not JSON). Every answer must be a status the operation documents, never a 5xx, and a
 * JSON body must be valid against the documented schema of that status.
 */

const ADMIN_TOKEN = 'contract-admin-token-0123456789';
const WEBHOOK_SECRET = 'contract-webhook-secret';
const VALID_PER_OPERATION = 12;
const MAX_INVALID_PER_OPERATION = 40;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Json;
}
interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  parameters: Parameter[];
  body?: { type: string; schema: Json };
  security: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}
interface ContractRequest {
  why: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** A value to send as the body, or raw text (sent as it is, for a body that is not JSON). */
  body?: unknown;
  rawBody?: string;
  auth: 'none' | 'user' | 'admin' | 'wrong';
  /** A Content-Encoding header to send. */
  encoding?: string;
}

type Generate = (schema: unknown, options: Json) => unknown;

describe('the OpenAPI document, and every operation against it', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let owner: RegisteredTestUser;
  let generate: Generate;
  /** Real ids, so that many generated requests reach past "not found" into the service. */
  const known: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, PMS_WEBHOOK_SECRET: WEBHOOK_SECRET, QUOTA_FREE_PER_DAY: '10000000', QUOTA_PRO_PER_DAY: '10000000' },
    });
    ({ generateSync: generate } = (await import('json-schema-faker')) as unknown as { generateSync: Generate });
    doc = (await request(t.app).get('/openapi.json')).body as OpenApiDocument;
    owner = await registerUser(t);
    const victim = await registerUser(t);
    const as = (method: 'post' | 'patch', path: string, body: unknown) => {
      const agent = request(t.app);
      return agent[method](`/api/v1${path}`)
        .set('Authorization', `Bearer ${owner.token}`)
        .send(body as object);
    };
    await request(t.app).patch(`/api/v1/admin/users/${owner.user.id}`).set('X-Admin-Token', ADMIN_TOKEN).send({ tier: 'enterprise' });
    const [tariff] = await seedTariffs(t.deps.database, ['5a382c2e5457a36f67d2dd80']);
    const portfolio = await as('post', '/pm/portfolios', { name: 'Contract' });
    const property = await as('post', '/pm/properties', {
      portfolio_id: portfolio.body.id,
      name: 'Contract One',
      address: '1 Market St',
      city: 'San Francisco',
      state: 'CA',
      zip_code: '94103',
      property_type: 'commercial',
      sqft: 20000,
      unit_count: 4,
      tariff_id: tariff.id,
      monthly_usage_kwh: 20000,
    });
    await as('post', `/pm/properties/${property.body.id}/bills`, {
      utility_type: 'electric',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      amount: 4321.09,
      usage_kwh: 20000,
    });
    const config = await as('post', '/billing/config', { property_id: property.body.id, method: 'unit_count', utility_types: ['water'] });
    const calculation = await as('post', '/billing/calculate-rubs', {
      property_id: property.body.id,
      billing_config_id: config.body.id,
      utility_type: 'water',
      total_amount: 1000,
      billing_period_start: '2026-01-01',
      billing_period_end: '2026-01-31',
      units: [
        { unit_id: 'A1', tenant_name: 'Ann' },
        { unit_id: 'A2', tenant_name: 'Bo' },
      ],
    });
    const key = await as('post', '/auth/api-keys', { name: 'contract' });
    for (const [name, res] of Object.entries({ portfolio, property, config, calculation, key })) {
      if (res.status >= 300) throw new Error(`fixture ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    Object.assign(known, {
      portfolio: portfolio.body.id,
      property: property.body.id,
      config: config.body.id,
      calculation: calculation.body.id,
      apiKey: key.body.id,
      user: victim.user.id,
      tariff: tariff.id,
      utility: tariff.utilityId,
      unit: 'A1',
      zip: '94103',
    });
  });
  afterAll(() => t.stop());

  it('is valid OpenAPI 3.1 to a strict validator: structure, schemas in strict mode, defaults and examples', async () => {
    const { Validator } = (await import('@seriousme/openapi-schema-validator')) as unknown as {
      Validator: new () => { validate(spec: unknown): Promise<{ valid: boolean; errors?: unknown }> };
    };
    expect(await new Validator().validate(doc)).toEqual({ valid: true });
    expect(strictSchemaProblems(doc)).toEqual([]);
  });

  it('answers every generated request with a documented status and body, never a 5xx', async () => {
    const ajv = openApiAjv(doc);
    const operations = operationsOf(doc);
    const problems: string[] = [];
    let sent = 0;
    for (const op of operations) {
      const requests = [...validRequests(op), ...invalidRequests(op)];
      const started = Date.now();
      const statuses: number[] = [];
      for (const req of requests) {
        const res = await send(op, req);
        sent++;
        statuses.push(res.status);
        const problem = checkAnswer(ajv, op, req, res);
        if (problem) problems.push(problem);
      }
      // CONTRACT_LOG=1: each operation's time and the statuses it answered, in order.
      if (process.env.CONTRACT_LOG) process.stdout.write(`${Date.now() - started} ms ${op.method} ${op.path} ${statuses.join(',')}\n`);
    }
    process.stdout.write(`contract test: ${sent} requests to ${operations.length} operations\n`);
    expect(operations.length).toBe(Object.values(doc.paths).reduce((n, item) => n + METHODS.filter((m) => m in item).length, 0));
    expect(sent).toBeGreaterThanOrEqual(operations.length * VALID_PER_OPERATION);
    expect(problems.slice(0, 30)).toEqual([]);
    // Over two thousand requests in one test: its time is the machine's load, not a figure the test checks.
  }, 600_000);

  it('states what an independent fuzzer found only in prose or not at all (issue 51 item 5)', async () => {
    const op = (path: string, method: string) => (doc.paths[path] as Record<string, Json>)[method] as Json;
    const bodySchema = (path: string, method: string) =>
      resolveSchema(((op(path, method).requestBody as Json).content as Record<string, { schema: Json }>)['application/json']!.schema);
    // One template per path: /billing/config/{id} and /billing/config/{property_id} were two.
    const templates = Object.keys(doc.paths).map((p) => p.replace(/\{[^}]+\}/g, '{}'));
    expect(templates.filter((p, i) => templates.indexOf(p) !== i)).toEqual([]);
    // tolerance_percent's step of 0.01.
    const settings = bodySchema('/api/v1/pm/audit/settings', 'patch');
    expect((settings.properties as Record<string, Json>).tolerance_percent!.multipleOf).toBe(0.01);
    // The bills import's 400 for a malformed multipart body.
    expect(Object.keys(op('/api/v1/pm/properties/{id}/bills/import', 'post').responses as Json)).toContain('400');
    // ?occupancy is an integer, never null.
    const occupancy = (op('/api/v1/billing/calculations/{id}/statements/{unit_id}', 'get').parameters as Json[]).find(
      (p) => p.name === 'occupancy',
    )!;
    expect((occupancy.schema as Json).type).toBe('integer');
    // Rules that lived in descriptions: a bill names meter_id or utility_type; a period has both its ends.
    expect(bodySchema('/api/v1/pm/properties/{id}/bills', 'post').anyOf).toEqual([
      { required: ['meter_id'] },
      { required: ['utility_type'] },
    ]);
    expect(bodySchema('/api/v1/calculate', 'post').dependentRequired).toEqual({
      period_start: ['period_end'],
      period_end: ['period_start'],
    });
    // An own tariff: a URDB record, or rates with name, sector and a utility (utility_id or utility_name).
    expect(bodySchema('/api/v1/tariffs/custom', 'post').anyOf).toEqual([
      { required: ['urdb'] },
      { required: ['name', 'sector'], anyOf: [{ required: ['utility_id'] }, { required: ['utility_name'] }] },
    ]);
    // Every POST takes the Idempotency-Key header (but the PMS webhook receiver, keyed by its body's SHA-256);
    // every error names its code and request id.
    for (const [path, item] of Object.entries(doc.paths)) {
      const post = (item as Record<string, Json>).post;
      if (post && path !== '/api/webhooks/pms')
        expect({ path, parameters: post.parameters }).toMatchObject({
          path,
          parameters: expect.arrayContaining([{ $ref: '#/components/parameters/IdempotencyKey' }]),
        });
    }
    expect(resolve(doc, '#/components/schemas/Error').required).toEqual(expect.arrayContaining(['detail', 'code', 'request_id']));
    // /admin/queues: a method it does not have is a 405 before the credentials are asked for.
    const wrong = await request(t.app).delete('/admin/queues').expect(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
  });

  /** The document's operations, with `$ref`ed parameters resolved. */
  function operationsOf(document: OpenApiDocument): Operation[] {
    const out: Operation[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        const parameters = ((op.parameters ?? []) as Json[]).map(
          (p) => (p.$ref ? resolve(document, p.$ref as string) : p) as unknown as Parameter,
        );
        const content = (op.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content;
        const [type, media] = Object.entries(content ?? {})[0] ?? [];
        out.push({
          method,
          path,
          parameters,
          body: type ? { type, schema: media!.schema } : undefined,
          security: (op.security ?? document.security ?? []) as Operation['security'],
          responses: op.responses as Operation['responses'],
        });
      }
    }
    return out;
  }

  function authOf(op: Operation, i: number): ContractRequest['auth'] {
    const schemes = op.security.flatMap((s) => Object.keys(s));
    if (schemes.includes('adminToken') || schemes.includes('adminBasic')) return 'admin';
    if (schemes.includes('bearerAuth')) return op.security.some((s) => Object.keys(s).length === 0) && i % 2 === 1 ? 'none' : 'user';
    return 'none';
  }

  /** The real id a path or body field of this name and path most likely means, if there is one. */
  function knownValue(op: Operation, name: string): string | undefined {
    if (name === 'property_id' || (name === 'id' && /\/(pm\/properties|billing\/config|billing\/history)\/\{/.test(op.path)))
      return known.property;
    if (name === 'portfolio_id' || (name === 'id' && op.path.includes('/portfolios/{'))) return known.portfolio;
    if (name === 'billing_config_id') return known.config;
    if (name === 'id' && op.path.includes('/billing/calculations/')) return known.calculation;
    if (name === 'unit_id') return known.unit;
    if (name === 'tariff_id' || (name === 'id' && op.path.includes('/tariffs/{'))) return known.tariff;
    if (name === 'utility_id' || (name === 'id' && op.path.includes('/utilities/{'))) return known.utility;
    if (name === 'zip_code') return known.zip;
    if (name === 'id' && op.path.includes('/api-keys/')) return known.apiKey;
    if (name === 'id' && op.path.includes('/admin/users/')) return known.user;
    return undefined;
  }

  function fake(schema: Json, seed: number): unknown {
    return generate(
      { ...schema, components: doc.components },
      {
        seed,
        maxItems: 4,
        alwaysFakeOptionals: seed % 2 === 0,
        optionalsProbability: 0.5,
        maxDefaultItems: 3,
        useDefaultValue: false,
        useExamplesValue: seed % 3 === 0,
        minDateTime: '2020-01-01',
        maxDateTime: '2027-12-31',
      },
    );
  }

  function validRequests(op: Operation): ContractRequest[] {
    const out: ContractRequest[] = [];
    for (let seed = 1; seed <= VALID_PER_OPERATION; seed++) {
      const useKnown = seed % 2 === 1;
      const params: Record<string, string> = {};
      const query: Record<string, unknown> = {};
      for (const p of op.parameters) {
        const value = (useKnown && knownValue(op, p.name)) || fake(p.schema, seed);
        if (p.in === 'path') params[p.name] = String(value);
        else if (p.in === 'query' && (p.required || seed % 4 !== 0)) query[p.name] = value;
      }
      let body: unknown;
      if (op.body) {
        body = fake(op.body.schema, seed);
        if (useKnown && body && typeof body === 'object' && !Array.isArray(body)) {
          for (const key of Object.keys(body)) {
            const value = knownValue(op, key);
            if (value) (body as Json)[key] = value;
          }
          if ('tariff_ids' in (body as Json))
            (body as Json).tariff_ids = [known.tariff, ...((body as Json).tariff_ids as unknown[]).slice(1)];
        }
      }
      out.push({ why: `valid #${seed}`, params, query, body, auth: authOf(op, seed) });
    }
    return out;
  }

  /**
   * One change each to a valid request: first to the request as a whole (credentials, the body,
   * path ids), then to each query and body field in turn, so the cap cuts only field changes.
   */
  function invalidRequests(op: Operation): ContractRequest[] {
    const base = validRequests(op)[0];
    const whole: ContractRequest[] = [];
    const fields: ContractRequest[] = [];
    const variant = (into: ContractRequest[], why: string, change: (r: ContractRequest) => void) => {
      const r: ContractRequest = structuredClone(base);
      r.why = why;
      change(r);
      into.push(r);
    };
    const signed = op.parameters.some((p) => p.in === 'header' && p.name === 'X-Pms-Signature');
    if (signed || (op.security.length > 0 && !op.security.some((s) => Object.keys(s).length === 0)))
      variant(whole, 'no credentials', (r) => {
        r.auth = 'none';
      });
    if (op.security.some((s) => 'bearerAuth' in s || 'adminToken' in s))
      variant(whole, 'wrong credentials', (r) => {
        r.auth = 'wrong';
      });
    for (const p of op.parameters.filter((x) => x.in === 'path')) {
      variant(whole, `unknown ${p.name}`, (r) => {
        r.params[p.name] = '00000000-0000-4000-8000-000000000000';
      });
      variant(whole, `NUL in ${p.name}`, (r) => {
        r.params[p.name] = 'a\u0000b';
      });
      variant(whole, `very long ${p.name}`, (r) => {
        r.params[p.name] = 'x'.repeat(5000);
      });
    }
    if (op.body?.type === 'application/json') {
      variant(whole, 'body not JSON', (r) => {
        r.rawBody = '{"unterminated": ';
      });
      variant(whole, 'body an array', (r) => {
        r.body = [];
      });
      variant(whole, 'body too large', (r) => {
        r.rawBody = JSON.stringify({ padding: 'x'.repeat(6 * 1024 * 1024) });
      });
      variant(whole, 'unsupported encoding', (r) => {
        r.encoding = 'x-unknown';
      });
    }
    for (const p of op.parameters.filter((x) => x.in === 'query')) {
      for (const [kind, value] of badValues(p.schema))
        variant(fields, `${kind} query ${p.name}`, (r) => {
          r.query[p.name] = value;
        });
      if (p.required)
        variant(fields, `missing query ${p.name}`, (r) => {
          delete r.query[p.name];
        });
    }
    if (op.body) {
      const schema = resolveSchema(op.body.schema);
      for (const [name, propertySchema] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
        for (const [kind, value] of badValues(propertySchema)) {
          variant(fields, `${kind} body ${name}`, (r) => {
            r.body = { ...(r.body as Json), [name]: value };
          });
        }
      }
      for (const name of (schema.required ?? []) as string[]) {
        variant(fields, `missing body ${name}`, (r) => {
          const b = { ...(r.body as Json) };
          delete b[name];
          r.body = b;
        });
      }
    }
    return [...whole, ...fields].slice(0, MAX_INVALID_PER_OPERATION);
  }

  function resolveSchema(schema: Json): Json {
    return schema.$ref ? resolveSchema(resolve(doc, schema.$ref as string)) : schema;
  }

  /** Values a field's schema refuses: the wrong type, out of its range, text that cannot be stored. */
  function badValues(fieldSchema: Json): Array<[string, unknown]> {
    const schema = resolveSchema(fieldSchema);
    const types = ([] as unknown[]).concat(schema.type ?? (schema.anyOf as Json[] | undefined)?.map((s) => resolveSchema(s).type) ?? []);
    const out: Array<[string, unknown]> = [];
    if (types.includes('number') || types.includes('integer')) {
      out.push(['wrong type', 'not-a-number']);
      if (typeof schema.maximum === 'number') out.push(['too large', schema.maximum + 1]);
      else out.push(['huge', 1e300]);
      if (typeof schema.minimum === 'number') out.push(['too small', schema.minimum - 1]);
      if (types.includes('integer')) out.push(['fraction', 1.5]);
    } else if (types.includes('string')) {
      out.push(
        ['NUL in', 'a\u0000b'],
        ['lone surrogate in', 'a\ud800b'],
        ['very long', 'x'.repeat(Number(schema.maxLength ?? 10_000) + 1)],
      );
      out.push(['wrong type', { an: 'object' }]);
    } else if (types.includes('array')) {
      out.push(['wrong type', 'not-an-array'], ['NUL in', ['a\u0000b']]);
    } else if (types.includes('boolean')) {
      out.push(['wrong type', 'maybe']);
    } else if (types.includes('object')) {
      out.push(['wrong type', 42]);
    }
    return out;
  }

  async function send(op: Operation, r: ContractRequest) {
    let url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(r.params[name] ?? 'x'));
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(r.query)) {
      for (const item of Array.isArray(v) ? v : [v]) search.append(k, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
    if ([...search].length > 0) url += `?${search.toString()}`;
    let req = request(t.app)[op.method](url);
    if (r.auth === 'user') req = req.set('Authorization', `Bearer ${owner.token}`);
    if (r.auth === 'wrong')
      req = op.security.some((s) => 'adminToken' in s)
        ? req.set('X-Admin-Token', 'not-the-token')
        : req.set('Authorization', 'Bearer not-a-token');
    if (r.encoding) req = req.set('Content-Encoding', r.encoding);
    if (r.auth === 'admin')
      req = op.security.some((s) => 'adminBasic' in s) ? req.auth('admin', ADMIN_TOKEN) : req.set('X-Admin-Token', ADMIN_TOKEN);
    const signed = op.parameters.some((p) => p.in === 'header' && p.name === 'X-Pms-Signature');
    if (signed) {
      // The receiver's credential is a signature of the body (the operation's description): each body signed, but for 'no credentials'.
      const raw = r.rawBody ?? JSON.stringify(r.body);
      if (r.why !== 'no credentials')
        req = req.set('X-Pms-Signature', `sha256=${crypto.createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex')}`);
      return req.set('Content-Type', 'application/json').send(raw);
    }
    if (r.rawBody !== undefined) return req.set('Content-Type', 'application/json').send(r.rawBody);
    if (!op.body) return req;
    if (op.body.type === 'application/x-www-form-urlencoded') {
      const form = Object.fromEntries(
        Object.entries((r.body ?? {}) as Json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      return req.type('form').send(form);
    }
    if (op.body.type === 'multipart/form-data') {
      const csv = 'utility_type,period_start,period_end,amount,usage_kwh\nelectric,2025-03-01,2025-03-31,1234.56,9000\n';
      return r.why.startsWith('valid') ? req.attach('file', Buffer.from(csv), 'bills.csv') : req.field('file', JSON.stringify(r.body));
    }
    return req.send(r.body as object);
  }

  function checkAnswer(ajv: ReturnType<typeof openApiAjv>, op: Operation, r: ContractRequest, res: request.Response): string | null {
    const where = `${op.method.toUpperCase()} ${op.path} (${r.why}) -> ${res.status}`;
    const documented = op.responses[String(res.status)];
    if (res.status >= 500) return `${where}: a 5xx ${JSON.stringify(res.body).slice(0, 200)}`;
    if (!documented)
      return `${where}: status not documented (${Object.keys(op.responses).join(', ')}) ${JSON.stringify(res.body).slice(0, 200)}`;
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!type)
      return res.status === 204 || !documented.content
        ? null
        : `${where}: no body, documented ${Object.keys(documented.content).join(', ')}`;
    if (!documented.content?.[type]) return `${where}: content type ${type} not documented`;
    if (type !== 'application/json') return null;
    const path = ['paths', op.path, op.method, 'responses', String(res.status), 'content', type, 'schema'];
    const validate = ajv.getSchema(pointer(path)) as ValidateFunction;
    return validate(res.body)
      ? null
      : `${where}: body not valid: ${ajv.errorsText(validate.errors)} ${JSON.stringify(res.body).slice(0, 300)}`;
  }
});

function resolve(document: unknown, ref: string): Json {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((o, k) => (o as Json)[k.replaceAll('~1', '/').replaceAll('~0', '~')], document) as Json;
}
