import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy, type VerifiedCallback } from 'passport-jwt';
import { unauthorized } from './errors';
import { unstorableTextProblem } from './storable-text';

export const TIERS = ['free', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** The authenticated caller as every handler sees it in `req.user`. */
export interface AuthUser {
  id: string;
  email: string;
  full_name: string;
  company: string | null;
  tier: Tier;
  is_active: boolean;
  created_at: string;
  last_login: string | null;
  /** The API key the request came with; null for a bearer token. */
  api_key_id: string | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // Merged into passport's empty `User`, so `req.user` is typed everywhere.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends AuthUser {}
  }
}

/** Finds active callers; null means "not authenticated" (unknown, inactive, revoked). Supplied by the accounts module. */
export interface CredentialResolver {
  /**
   * The user a bearer token names; `issuedAt` (the token's `iat`, Unix seconds) lets the resolver
   * refuse tokens issued before the account's tokens were revoked (a deactivation).
   */
  userById(userId: string, issuedAt: number): Promise<AuthUser | null>;
  userByApiKey(key: string): Promise<AuthUser | null>;
}

export const API_KEY_HEADER = 'x-api-key';

/** Constant-time string comparison; hashing first makes unequal lengths take the same time too. */
export function safeEqual(a: string, b: string): boolean {
  const da = crypto.createHash('sha256').update(a, 'utf8').digest();
  const db = crypto.createHash('sha256').update(b, 'utf8').digest();
  return crypto.timingSafeEqual(da, db);
}

function apiKeyStrategy(resolver: CredentialResolver): passport.Strategy {
  return {
    name: 'api-key',
    authenticate(req: Request) {
      const key = req.headers[API_KEY_HEADER];
      if (typeof key !== 'string' || key === '') return this.fail(401);
      resolver.userByApiKey(key).then(
        (user) => (user ? this.success(user) : this.fail(401)),
        (err: Error) => this.error(err),
      );
    },
  };
}

/** Claims of a bearer token whose signature passport-jwt has checked. */
interface TokenClaims {
  sub?: unknown;
  exp?: unknown;
  iat?: unknown;
}

/**
 * A subject that can name a user: a non-empty string PostgreSQL can compare (a NUL or a lone
 * surrogate would make the lookup fail with a 500, though the token is merely one of no user).
 */
const isSubject = (sub: unknown): sub is string =>
  typeof sub === 'string' && sub !== '' && sub.length <= 200 && unstorableTextProblem(sub) === null;

function jwtStrategy(secret: string, now: () => Date, resolver: CredentialResolver): JwtStrategy {
  return new JwtStrategy(
    {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject (jsonwebtoken takes one; passport-jwt's types say string | Buffer): given a string,
      // jsonwebtoken first tries to read it as a public key on every request.
      secretOrKey: crypto.createSecretKey(Buffer.from(secret, 'utf8')) as unknown as Buffer,
      algorithms: ['HS256'],
      // Expiry is checked below against the injected clock, so tests can move time.
      ignoreExpiration: true,
    },
    (claims: TokenClaims, done: VerifiedCallback) => {
      const nowSeconds = Math.floor(now().getTime() / 1000);
      if (!isSubject(claims.sub) || typeof claims.exp !== 'number' || claims.exp <= nowSeconds) {
        return done(null, false);
      }
      // Every token this service issues has an `iat`; one without is as old as can be.
      const issuedAt = typeof claims.iat === 'number' && Number.isFinite(claims.iat) ? claims.iat : -Infinity;
      resolver.userById(claims.sub, issuedAt).then(
        (user) => done(null, user ?? false),
        (err) => done(err, false),
      );
    },
  );
}

export interface Authentication {
  /** 401 `Not authenticated` unless a valid bearer token or API key is sent. */
  required: RequestHandler;
  /** Anonymous when no credentials are sent; credentials that are sent must be valid (else 401). */
  optional: RequestHandler;
}

/** The error passport's failWithError passes on when no strategy authenticated the request. */
function isPassportFailure(err: unknown): boolean {
  return err instanceof Error && err.name === 'AuthenticationError';
}

/**
 * Passport (its own instance, no sessions) with two strategies: `jwt`
 * (Authorization: Bearer) and `api-key` (X-API-Key). Whichever credentials are
 * present are tried; the first that authenticates wins.
 */
export function createAuthentication(opts: { jwtSecret: string; now: () => Date; resolver: CredentialResolver }): Authentication {
  const authenticator = new passport.Passport();
  authenticator.use('jwt', jwtStrategy(opts.jwtSecret, opts.now, opts.resolver));
  authenticator.use('api-key', apiKeyStrategy(opts.resolver));

  // One passport middleware per combination of credentials sent, built once. failWithError hands
  // a failure on as an error, which becomes the 401 `Not authenticated` here.
  const passportFor = (strategies: string[]): RequestHandler => {
    const authenticate = authenticator.authenticate(strategies, { session: false, failWithError: true, authInfo: false }) as RequestHandler;
    return (req, res, next) => authenticate(req, res, (err?: unknown) => next(isPassportFailure(err) ? unauthorized() : err));
  };
  const byApiKey = passportFor(['api-key']);
  const byToken = passportFor(['jwt']);
  const byEither = passportFor(['api-key', 'jwt']);

  const middleware =
    (mode: 'required' | 'optional'): RequestHandler =>
    (req, res, next) => {
      const apiKey = req.headers[API_KEY_HEADER] !== undefined;
      const token = req.headers.authorization !== undefined;
      if (apiKey && token) return byEither(req, res, next);
      if (apiKey) return byApiKey(req, res, next);
      if (token) return byToken(req, res, next);
      if (mode === 'optional') return next();
      next(unauthorized());
    };

  return { required: middleware('required'), optional: middleware('optional') };
}

/** The authenticated caller's id (routes with auth 'required' always have one). */
export function callerId(req: Request): string {
  if (!req.user) throw unauthorized();
  return req.user.id;
}
