import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createProperty } from '../pm/helpers';

export { as, createProperty };

/** A valid billing configuration body for a property; override any field. */
export function configBody(propertyId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    property_id: propertyId,
    method: 'sqft',
    utility_types: ['water', 'sewer'],
    common_area_percent: 10,
    admin_fee_percent: 5,
    ...overrides,
  };
}

export async function createConfig(t: TestApp, token: string, propertyId: string, overrides: Record<string, unknown> = {}) {
  const res = await as(t, token).post('/billing/config', configBody(propertyId, overrides));
  if (res.status !== 201) throw new Error(`create config failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string } & Record<string, unknown>;
}

/** README example 1: four units by sqft, the last vacant. */
export const EXAMPLE_UNITS = [
  { unit_id: '101', tenant_name: 'Ana Lima', sqft: 1000 },
  { unit_id: '102', tenant_name: 'Ben Okafor', sqft: 750 },
  { unit_id: '103', tenant_name: 'Chen Wei', sqft: 250 },
  { unit_id: '104', tenant_name: '', sqft: 500, is_vacant: true },
];

/** A calculate-rubs body for a property and configuration; override any field. */
export function calculateBody(propertyId: string, configId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    property_id: propertyId,
    billing_config_id: configId,
    billing_period_start: '2026-01-01',
    billing_period_end: '2026-01-31',
    total_amount: 1000,
    utility_type: 'water',
    units: EXAMPLE_UNITS,
    ...overrides,
  };
}

/** A property with an active configuration (README example 1's terms unless overridden). */
export async function billedProperty(t: TestApp, token: string, config: Record<string, unknown> = {}) {
  const property = await createProperty(t, token, { name: 'Maple Court', address: '12 Maple St', city: 'Ann Arbor', zip_code: '48104' });
  const cfg = await createConfig(t, token, property.id, config);
  return { propertyId: property.id, configId: cfg.id };
}

/** `n` units by sqft with distinct ids (every 10th vacant). */
export function manyUnits(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    unit_id: `U-${String(i + 1).padStart(5, '0')}`,
    tenant_name: `Tenant ${i + 1}`,
    sqft: 600 + ((i * 37) % 900),
    is_vacant: i % 10 === 9,
  }));
}

/** A clock one millisecond later at every reading: records made one after the other never share a timestamp. */
export function tickingClock(start = Date.now()): () => Date {
  let ms = start;
  return () => new Date(ms++);
}

/** A test app on a tickingClock with two registered users, alice and bob (stop it with t.stop()). */
export async function startBillingApp(): Promise<{ t: TestApp; alice: string; bob: string }> {
  const t = await createTestApp({ now: tickingClock() });
  const alice = (await registerUser(t)).token;
  const bob = (await registerUser(t)).token;
  return { t, alice, bob };
}
