import express, { type Request, type RequestHandler, type Response } from 'express';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { parseOrThrow } from './validate';
import { AppError, ERROR_CODES, notFound, validationFailed } from './errors';
import { methodNotAllowedError } from './method-not-allowed';
import { firstUnstorableText, mayHoldUnstorableEscape, unstorableTextProblem } from './storable-text';

/** none: public; optional/required: a user's bearer token or API key; admin: the operator's X-Admin-Token. */
export type AuthMode = 'none' | 'optional' | 'required' | 'admin';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Middleware chains applied per AuthMode (authentication, then quota). Supplied by the composition root. */
export type RouteGuards = Record<AuthMode, RequestHandler[]>;

/**
 * The Idempotency-Key check every POST passes, after authentication (whose key it is) and the body
 * parsers (what it fingerprints); `streamed` for a route that reads its multipart body itself.
 */
export type IdempotencyGuard = (streamed: boolean) => RequestHandler;

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthMode;
  body?: B;
  /** Content type of `body` in the docs. A multipart route reads its body itself. */
  bodyType?: 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';
  /** The JSON body limit when it is not the default 1 MB (e.g. '5mb'). */
  bodyLimit?: string;
  query?: Q;
  params?: P;
  /** Success status; 204 sends no body. Default 200. */
  status?: number;
  response?: z.ZodType;
  /** Other media types of the success response (e.g. text/csv, text/html), for the docs. */
  responseTypes?: Record<string, z.ZodType>;
  /** Documented error statuses with a short description. */
  errors?: Record<number, string>;
  /** Extra middleware run after the guards and before validation (rate limiters, tier checks, uploads). */
  middleware?: RequestHandler[];
}

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
}

/**
 * The one error body: `detail`, for a 422 the fields at fault, the stable machine `code` and the
 * `request_id` of the answer's X-Request-Id header.
 */
export const errorBody = z
  .object({
    detail: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    code: z
      .string()
      .regex(/^[a-z]+(_[a-z]+)*$/)
      .meta({
        description: `Stable machine code, snake_case: ${ERROR_CODES.map((c) => `\`${c.code}\` (${c.status})`).join(', ')}`,
        example: 'validation_error',
      }),
    request_id: z.string().meta({
      description: "The answer's X-Request-Id: quote it when reporting a problem",
      example: '0b9f5c1e-7d2a-4f7e-9c55-3e1b2a4d6f80',
    }),
  })
  .meta({ id: 'Error' });

/** An error response for the OpenAPI document of a route outside ApiRouter. */
export const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorBody } } });

const DEFAULT_BODY_LIMIT = '1mb';
/** Small forms only: the OAuth2 login. */
const FORM_BODY_LIMIT = '100kb';

/**
 * One router for every versioned endpoint: registers the Express route and its
 * OpenAPI path from the same zod schemas, so /openapi.json lists exactly what exists.
 * Handlers get validated input and return the response body.
 *
 * Express tries routes in the order they are registered: a literal path (/tariffs/search) is
 * registered before a templated one it would match (/tariffs/:id), and answers 405 for the
 * methods it does not have, so no request for it is taken as an id.
 */
export class ApiRouter {
  /** The Express router to mount at `prefix`. */
  readonly router = express.Router();
  /** The methods of each literal path registered so far (lower case). */
  private readonly literalPaths = new Map<string, Set<string>>();

  constructor(
    readonly prefix: string,
    readonly registry: OpenAPIRegistry,
    private readonly guards: RouteGuards,
    private readonly idempotency?: IdempotencyGuard,
  ) {}

  readonly get = this.method('get');
  readonly post = this.method('post');
  readonly put = this.method('put');
  readonly patch = this.method('patch');
  readonly delete = this.method('delete');

  /** Registers a route of this method: `api.get(path, spec, handler)`. */
  private method(method: Method) {
    return <B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown>(
      path: string,
      spec: RouteSpec<B, Q, P>,
      handler: Handler<B, Q, P>,
    ): void => {
      this.add(method, path, spec, handler);
    };
  }

  /**
   * The route's handlers in order: authentication and quota (the guards), its body parsers
   * (after authentication, so an anonymous caller's body is never read), the input guard, the
   * route's own middleware, then validation and the handler.
   */
  private add<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
    method: Method,
    path: string,
    spec: RouteSpec<B, Q, P>,
    handler: Handler<B, Q, P>,
  ) {
    const status = spec.status ?? 200;
    const run: RequestHandler = async (req, res) => {
      const params = spec.params ? parseOrThrow(spec.params, req.params) : req.params;
      const query = spec.query ? parseOrThrow(spec.query, req.query) : {};
      const body = spec.body ? parseOrThrow(spec.body, req.body ?? {}) : req.body;
      const result = await handler({ body, query, params, req, res } as RouteInput<z.output<B>, z.output<Q>, z.output<P>>);
      if (res.headersSent) return;
      if (status === 204) {
        res.status(204).end();
        return;
      }
      res.status(status).json(result);
    };
    const bodyParsers: RequestHandler[] =
      spec.body && spec.bodyType !== 'multipart/form-data'
        ? [
            express.json({ limit: spec.bodyLimit ?? DEFAULT_BODY_LIMIT, verify: noteJsonEscapes }),
            express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, verify: noteForm }),
          ]
        : [];
    const contentType: RequestHandler[] =
      spec.body && spec.bodyType !== 'multipart/form-data' ? [bodyContentType(spec.bodyType ?? 'application/json')] : [];
    const storable = storableInput(notFoundDetail(spec.errors?.[404]));
    if (!path.includes(':')) this.onlyItsMethods(path, method);
    const idempotent = method === 'post' && this.idempotency ? [this.idempotency(spec.bodyType === 'multipart/form-data')] : [];
    this.router[method](
      path,
      ...this.guards[spec.auth],
      ...contentType,
      ...bodyParsers,
      storable,
      ...idempotent,
      ...(spec.middleware ?? []),
      run,
    );
    this.document(method, path, spec, status);
  }

  /**
   * A literal path answers the methods registered for it and 405 for any other, before the routes
   * registered after it (PATCH /tariffs/search is not a change of tariff "search"). OPTIONS goes
   * on to Express's own answer.
   */
  private onlyItsMethods(path: string, method: Method) {
    const key = path.toLowerCase();
    let methods = this.literalPaths.get(key);
    if (!methods) {
      const own = new Set<string>();
      this.literalPaths.set(key, own);
      this.router.all(path, (req, _res, next) => {
        if (own.has(req.method) || (req.method === 'HEAD' && own.has('GET')) || req.method === 'OPTIONS') return next();
        throw methodNotAllowedError(own);
      });
      methods = own;
    }
    methods.add(method.toUpperCase());
  }

  private document(method: Method, path: string, spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>, status: number) {
    const content: Record<string, { schema: z.ZodType }> = {};
    if (spec.response && status !== 204) content['application/json'] = { schema: spec.response };
    for (const [type, schema] of Object.entries(spec.responseTypes ?? {})) content[type] = { schema };
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
      [status]:
        Object.keys(content).length > 0 ? { description: 'Success', content } : { description: status === 204 ? 'No content' : 'Success' },
    };
    for (const [code, description] of Object.entries(documentedErrors(spec))) {
      responses[code] = errorResponse(description);
    }
    const security: Array<Record<string, string[]>> = {
      none: [],
      optional: [{}, { bearerAuth: [] }, { apiKeyAuth: [] }],
      required: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
      admin: [{ adminToken: [] }],
    }[spec.auth];
    this.registry.registerPath({
      method,
      path: (this.prefix + path).replace(/:([A-Za-z_]+)/g, '{$1}'),
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      security,
      ...(method === 'post' ? { parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }] } : {}),
      request: {
        params: spec.params as never,
        query: spec.query as never,
        body: spec.body ? { required: true, content: { [spec.bodyType ?? 'application/json']: { schema: spec.body } } } : undefined,
      },
      responses,
    });
  }
}

/**
 * Every error status a route can answer, with what it means: the route's own, then those of
 * the layers every route passes (the body parser, the guards, the input guard, the database).
 */
function documentedErrors(spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>): Record<number, string> {
  const errors: Record<number, string> = { ...(spec.errors ?? {}) };
  if (spec.body && (spec.bodyType ?? 'application/json') === 'application/json') {
    errors[400] ??= 'Invalid JSON body';
    errors[415] ??= 'A body sent without `Content-Type: application/json` (curl -d sends a form), or an unsupported content encoding';
  }
  if (spec.body) errors[413] ??= `Request body too large (over ${spec.bodyLimit ?? DEFAULT_BODY_LIMIT})`;
  if (spec.auth === 'required') errors[401] ??= 'Not authenticated';
  if (spec.auth === 'optional') errors[401] ??= 'A bearer token or X-API-Key was sent and is not valid (send none to call anonymously)';
  if (spec.auth === 'admin') {
    errors[401] ??= 'Missing or wrong X-Admin-Token';
    errors[404] ??= 'ADMIN_TOKEN is not set: Not Found';
  }
  if (spec.params) errors[404] ??= 'Not found';
  // Every route: a string PostgreSQL cannot store, in the query or body, is refused (storableInput).
  errors[422] ??= 'Validation error';
  if (spec.auth === 'optional' || spec.auth === 'required') errors[429] ??= 'Daily request quota exceeded';
  errors[503] ??= 'Service temporarily unavailable: the database cannot be reached (Retry-After)';
  return errors;
}

/**
 * A body in a type the route does not read is a 415 saying which type it takes, not a 422 "field
 * required" for fields the parser never saw (curl's `-d` sends a form unless told otherwise). A JSON
 * route reads `application/json` (and `+json` types); the login form also reads JSON. A request
 * without a body passes (its fields are missing: a 422 names them).
 */
function bodyContentType(bodyType: 'application/json' | 'application/x-www-form-urlencoded'): RequestHandler {
  const accepted = bodyType === 'application/json' ? ['json', '+json'] : ['urlencoded', 'json', '+json'];
  return (req, _res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && !req.is(accepted)) {
      const sent = req.headers['content-type']
        ? `was sent as ${req.headers['content-type'].split(';')[0]}`
        : 'was sent without a Content-Type';
      throw new AppError(415, `Content-Type must be ${bodyType}: the body ${sent}`);
    }
    next();
  };
}

/** The route's own 404 detail when it has one ("Tariff not found"), else Express's "Not Found". */
function notFoundDetail(documented: string | undefined): string {
  return documented !== undefined && /^[A-Z][A-Za-z ]* not found$/.test(documented) ? documented : 'Not Found';
}

/**
 * Bodies whose parsed strings may hold text PostgreSQL cannot store, noted by the body parsers'
 * `verify` hook from the raw bytes: a JSON body without an escape that could make one is not
 * walked (a 10,000-unit body would take milliseconds). A form is always walked (%00 decodes to
 * NUL), and forms are small.
 */
const mayHoldUnstorable = new WeakSet<object>();
const noteJsonEscapes = (req: object, _res: unknown, raw: Buffer) => {
  if (mayHoldUnstorableEscape(raw)) mayHoldUnstorable.add(req);
};
const noteForm = (req: object) => {
  mayHoldUnstorable.add(req);
};

/**
 * Every route's input as PostgreSQL can store it (storable-text.ts), before any middleware of
 * the route or query runs: a path id that cannot be stored names nothing (404); a query or body
 * string, key or value, is a 422 naming the field.
 */
function storableInput(notFoundText: string): RequestHandler {
  return (req, _res, next) => {
    for (const value of Object.values(req.params as Record<string, unknown>)) {
      if (typeof value === 'string' && unstorableTextProblem(value)) throw notFound(notFoundText);
    }
    const found = firstUnstorableText(req.query) ?? (mayHoldUnstorable.has(req) ? firstUnstorableText(req.body) : null);
    if (found) {
      throw validationFailed([{ field: found.path.map(String).join('.'), message: found.isKey ? `keys ${found.problem}` : found.problem }]);
    }
    next();
  };
}

type Handler<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> = (
  input: RouteInput<z.output<B>, z.output<Q>, z.output<P>>,
) => unknown;

const IDEMPOTENCY_KEY_DOC =
  "Makes the POST safe to retry (as Stripe's API does): the same key with the same method, path and " +
  "body within 24 hours answers the first answer's status and body again, with `Idempotent-Replayed: true` and " +
  "`Original-Request` (the first request's id), without acting again. The same key with another body (or path) is a 409 " +
  '`idempotency_key_reused`; while the first request is still running, a 409 `idempotency_key_in_use` (Retry-After: 1). ' +
  'An answer of 500 or more is not kept. Keys are per account (all its tokens and API keys), per operator on admin ' +
  'routes, per client address when anonymous. 1 to 255 visible ASCII characters (a UUID is the advice), else 400 ' +
  '`invalid_idempotency_key`.';

/** The reusable `Idempotency-Key` header parameter of every POST (components.parameters.IdempotencyKey). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: IDEMPOTENCY_KEY_DOC,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  example: '5f0c7e0a-3b1d-4c55-9a51-2c8a4f1e9b10',
} as const;

export function createOpenApiRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registry.registerComponent('securitySchemes', 'apiKeyAuth', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  registry.registerComponent('securitySchemes', 'adminToken', { type: 'apiKey', in: 'header', name: 'X-Admin-Token' });
  registry.registerComponent('securitySchemes', 'adminBasic', { type: 'http', scheme: 'basic' });
  registry.registerComponent('parameters', 'IdempotencyKey', IDEMPOTENCY_KEY_PARAMETER);
  return registry;
}
