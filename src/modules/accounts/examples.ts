/** OpenAPI examples of the account endpoints (the README's "Accounts and API keys"). */

export const registerRequest = {
  email: 'pm@example.com',
  password: 'Str0ngPassword',
  full_name: 'Pat Manager',
  company: 'Palm Court Properties',
};

export const registeredUser = {
  id: '3c1e9b2a-5d7f-4e8a-9b0c-1d2e3f4a5b6c',
  email: 'pm@example.com',
  full_name: 'Pat Manager',
  company: 'Palm Court Properties',
  tier: 'free',
  created_at: '2026-11-02T14:00:05.000Z',
};

export const user = { ...registeredUser, is_active: true, last_login: '2026-11-02T14:01:12.000Z' };

export const loginForm = { username: 'pm@example.com', password: 'Str0ngPassword' };

export const token = {
  access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzYzFlOWIyYSJ9.c2lnbmF0dXJl',
  token_type: 'bearer',
};

export const createApiKeyRequest = { name: 'property software' };

export const createdApiKey = {
  id: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
  name: 'property software',
  key: 'ek_4fQ9zR2mX7kT1wB8nC3vD6hJ0pL5sY9aE2gU7iO4rK1',
  created_at: '2026-11-02T14:02:30.000Z',
};

export const apiKey = {
  id: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
  name: 'property software',
  prefix: 'ek_4fQ9z',
  created_at: '2026-11-02T14:02:30.000Z',
  last_used_at: '2026-11-03T09:15:00.000Z',
  is_active: true,
};
