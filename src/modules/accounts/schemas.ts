import { z } from 'zod';
import { TIERS } from '../../platform/http/auth';
import { COMMON_PASSWORD, isCommonPassword } from './common-passwords';
import * as ex from './examples';

const email = z
  .email()
  .max(254, { error: 'ensure this value has at most 254 characters' })
  .transform((v) => v.toLowerCase());

/** At least 8 characters with an uppercase letter, a lowercase letter and a digit, and not a common password. */
export const password = z
  .string()
  .min(8)
  .max(128)
  .regex(/[A-Z]/, { error: 'password must contain an uppercase letter' })
  .regex(/[a-z]/, { error: 'password must contain a lowercase letter' })
  .regex(/[0-9]/, { error: 'password must contain a digit' })
  // Checked once the others pass: a password that breaks a rule is told that rule only.
  .refine((v) => !isCommonPassword(v), { error: COMMON_PASSWORD, when: (payload) => payload.issues.length === 0 })
  // The three checks as one pattern for the OpenAPI document (zod would state only the first).
  .meta({ pattern: '^(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[0-9])' });

export const registerBody = z
  .object({
    email,
    password,
    full_name: z.string().trim().min(1).max(200),
    company: z.string().trim().max(200).nullish(),
  })
  .meta({ id: 'RegisterRequest', example: ex.registerRequest });

/** OAuth2 password form; `grant_type`, `scope` and client fields are accepted and ignored. */
export const loginForm = z
  .object({
    username: z.string().max(254).describe('the e-mail address'),
    password: z.string().max(1024),
    grant_type: z.string().optional(),
    scope: z.string().optional(),
  })
  .meta({ id: 'LoginForm', example: ex.loginForm });

export const tokenResponse = z
  .object({ access_token: z.string(), token_type: z.literal('bearer') })
  .meta({ id: 'Token', example: ex.token });

const timestamp = z.string().describe('ISO 8601 UTC');

export const registeredUser = z
  .object({
    id: z.string(),
    email: z.string(),
    full_name: z.string(),
    company: z.string().nullable(),
    tier: z.enum(TIERS),
    created_at: timestamp,
  })
  .meta({ id: 'RegisteredUser', example: ex.registeredUser });

export const userResponse = registeredUser
  .extend({ is_active: z.boolean(), last_login: timestamp.nullable() })
  .meta({ id: 'User', example: ex.user });

export const createApiKeyBody = z
  .object({ name: z.string().trim().min(1).max(100) })
  .meta({ id: 'ApiKeyCreate', example: ex.createApiKeyRequest });

export const createdApiKey = z
  .object({ id: z.string(), name: z.string(), key: z.string().describe('shown once'), created_at: timestamp })
  .meta({ id: 'ApiKeyCreated', example: ex.createdApiKey });

export const apiKeyListItem = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('first 8 characters of the key'),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
    is_active: z.boolean(),
  })
  .meta({ id: 'ApiKey', example: ex.apiKey });

export const apiKeyParams = z.object({ id: z.string().min(1).max(100) });

export type RegisterInput = z.output<typeof registerBody>;
export type UserResponse = z.output<typeof userResponse>;
export type RegisteredUser = z.output<typeof registeredUser>;
export type ApiKeyListItem = z.output<typeof apiKeyListItem>;
export type CreatedApiKey = z.output<typeof createdApiKey>;
