import { z } from 'zod';

/**
 * The only module that reads process.env. Parsed once at boot; a bad value stops
 * start-up with the variable's name. Secrets have no baked-in defaults.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

/** A browser origin as the Origin header sends it: scheme, host and port, no path. */
const ORIGIN = /^https?:\/\/[^/\s,]+$/;

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(def);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(8000, 0, 65535),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{0,64}$/, 'must be up to 64 of A-Z a-z 0-9 _ : . -')
    .default('energy:'),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_EXPIRE_MINUTES: int(1440, 1, 60 * 24 * 365),
  PMS_WEBHOOK_SECRET: optionalString,
  PMS_API_URL: optionalString.pipe(z.url().optional()),
  PMS_API_KEY: optionalString,
  PMS_API_TIMEOUT_MS: int(10000, 1, 600000),
  URDB_API_URL: z.url().default('https://api.openei.org/utility_rates'),
  URDB_API_KEY: optionalString,
  URDB_REFRESH_CRON: optionalString.pipe(
    z
      .string()
      .regex(/^(\S+\s+){4,5}\S+$/, 'must be a cron expression of 5 or 6 fields (UTC), e.g. 0 3 * * 1')
      .optional(),
  ),
  URDB_API_TIMEOUT_MS: int(30000, 1, 600000),
  URDB_API_ATTEMPTS: int(5, 1, 20),
  URDB_API_BACKOFF_MS: int(2000, 0, 3600000),
  URDB_API_PAGE_SIZE: int(500, 1, 500),
  ADMIN_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  RATE_LIMIT_REGISTER_PER_MIN: int(5, 1),
  RATE_LIMIT_LOGIN_PER_MIN: int(10, 1),
  RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN: int(60, 1),
  RATE_LIMIT_AUDIT_PER_MIN: int(20, 1),
  QUOTA_FREE_PER_DAY: int(1000, 1),
  QUOTA_PRO_PER_DAY: int(100000, 1),
  MAX_API_KEYS: int(10, 1, 1000),
  TRUST_PROXY: optionalString,
  CORS_ORIGINS: optionalString.pipe(
    z
      .string()
      .refine(
        (v) =>
          v
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
            .every((o) => o === '*' || ORIGIN.test(o)),
        'must be * or comma-separated origins, each scheme://host[:port] (https://app.example.com)',
      )
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

/** Every environment variable the service reads (.env.example lists each; test/env-example.test.ts checks). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as Array<keyof Env>;

/** The value each variable takes when it is unset (undefined: none). */
export function configDefaults(): Readonly<Env> {
  return envSchema.parse({});
}

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  port: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prepended to the Redis keys of rate-limit and quota counters (tests give each app its own). */
  redisKeyPrefix: string;
  /** Undefined here means "generate once and keep in DATA_DIR" (see platform/secrets.ts). */
  jwtSecret?: string;
  accessTokenExpireMinutes: number;
  pms: { webhookSecret?: string; apiUrl?: string; apiKey?: string; timeoutMs: number };
  /**
   * The catalog refresh from NREL's OpenEI utility_rates API, version 8 (tariffs/refresh/): without a key
   * nothing is fetched. `refreshCron`: when the scheduler refreshes (UTC); undefined: never (the default).
   */
  urdb: { apiUrl: string; apiKey?: string; refreshCron?: string; timeoutMs: number; attempts: number; backoffMs: number; pageSize: number };
  adminToken?: string;
  limits: {
    registerPerMin: number;
    loginPerMin: number;
    /** Webhook deliveries refused with a 4xx (bad signature, too large) per address per minute, before a 429. */
    webhookRefusedPerMin: number;
    /** Re-runs of a bill's audit (POST /pm/bills/{id}/audit) per account per minute, before a 429. */
    auditPerMin: number;
    quotaFreePerDay: number;
    quotaProPerDay: number;
    maxApiKeys: number;
  };
  /** Express `trust proxy` value: a hop count, a boolean, or a list of addresses. */
  trustProxy?: boolean | number | string;
  /** Origins a browser may call the API from (CORS); undefined: none (no CORS headers); ['*']: any. */
  corsOrigins?: string[];
  logLevel: Env['LOG_LEVEL'];
}

export class ConfigError extends Error {}

function parseTrustProxy(v: string | undefined): Config['trustProxy'] {
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** Parses an environment (process.env by default) into a frozen Config, or throws ConfigError naming the variables. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    jwtSecret: e.JWT_SECRET,
    accessTokenExpireMinutes: e.ACCESS_TOKEN_EXPIRE_MINUTES,
    pms: Object.freeze({
      webhookSecret: e.PMS_WEBHOOK_SECRET,
      apiUrl: e.PMS_API_URL,
      apiKey: e.PMS_API_KEY,
      timeoutMs: e.PMS_API_TIMEOUT_MS,
    }),
    urdb: Object.freeze({
      apiUrl: e.URDB_API_URL,
      apiKey: e.URDB_API_KEY,
      refreshCron: e.URDB_REFRESH_CRON,
      timeoutMs: e.URDB_API_TIMEOUT_MS,
      attempts: e.URDB_API_ATTEMPTS,
      backoffMs: e.URDB_API_BACKOFF_MS,
      pageSize: e.URDB_API_PAGE_SIZE,
    }),
    adminToken: e.ADMIN_TOKEN,
    limits: Object.freeze({
      registerPerMin: e.RATE_LIMIT_REGISTER_PER_MIN,
      loginPerMin: e.RATE_LIMIT_LOGIN_PER_MIN,
      webhookRefusedPerMin: e.RATE_LIMIT_WEBHOOK_REFUSED_PER_MIN,
      auditPerMin: e.RATE_LIMIT_AUDIT_PER_MIN,
      quotaFreePerDay: e.QUOTA_FREE_PER_DAY,
      quotaProPerDay: e.QUOTA_PRO_PER_DAY,
      maxApiKeys: e.MAX_API_KEYS,
    }),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    corsOrigins: e.CORS_ORIGINS?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
  });
}
