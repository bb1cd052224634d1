import jwt from 'jsonwebtoken';

export const ACCESS_TOKEN_ALGORITHM = 'HS256' as const;

/**
 * Signs an HS256 access token for a user. `iat`/`exp` come from the injected
 * clock, so tests can issue tokens "in the past"; verification (passport-jwt in
 * src/platform/http/auth.ts) checks `exp` against the same clock.
 */
export function issueAccessToken(opts: { secret: string; userId: string; now: Date; lifetimeMinutes: number }): string {
  const iat = Math.floor(opts.now.getTime() / 1000);
  return jwt.sign({ sub: opts.userId, iat, exp: iat + opts.lifetimeMinutes * 60 }, opts.secret, {
    algorithm: ACCESS_TOKEN_ALGORITHM,
  });
}
