import { createClient } from '@energy-cost-api/client';

/** Registers, logs in, prices a water meter on its tariff, records June's bill and reads its audit. */
export async function auditABill(baseUrl: string, email: string, password: string) {
  const anonymous = createClient(baseUrl);
  await anonymous.POST('/api/v1/auth/register', { body: { email, password, full_name: 'Pat Manager' } });
  const login = await anonymous.POST('/api/v1/auth/login', {
    body: { username: email, password },
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    bodySerializer: (form) => new URLSearchParams(form).toString(),
  });
  if (!login.data) throw new Error(`login: ${login.error?.detail}`);

  const api = createClient(baseUrl, { token: login.data.access_token });
  const property = await api.POST('/api/v1/pm/properties', {
    body: {
      name: 'Palm Court', address: '1 Palm Ct', city: 'Harlingen', state: 'TX', zip_code: '78550',
      property_type: 'residential', unit_count: 12,
    },
  });
  if (!property.data) throw new Error(`property: ${property.error?.detail}`);

  // Harlingen Waterworks' 2024 inside-city water rate: tiers per kgal and a monthly flat fee.
  const allYear = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const tariff = await api.POST('/api/v1/tariffs/custom', {
    body: {
      name: 'Residential water, inside city (5/8" meter)', utility_name: 'Harlingen Waterworks System',
      state: 'TX', sector: 'residential', utility_type: 'water', unit: 'kgal', effective_date: '2024-05-01',
      energy_rates: [
        { period: 'all_year', months: allYear, tier: 1, tier_max: 3, rate_per_unit: 1.3 },
        { period: 'all_year', months: allYear, tier: 2, tier_max: 10, rate_per_unit: 1.8 },
        { period: 'all_year', months: allYear, tier: 3, tier_max: 20, rate_per_unit: 2.55 },
        { period: 'all_year', months: allYear, tier: 4, tier_max: null, rate_per_unit: 3.05 },
      ],
      fixed_charges: [{ name: 'Water flat fee (5/8" meter)', amount: 9.91, frequency: 'monthly' }],
    },
  });
  if (!tariff.data) throw new Error(`tariff: ${tariff.error?.detail}`);

  const propertyPath = { params: { path: { id: property.data.id } } };
  const meter = await api.POST('/api/v1/pm/properties/{id}/meters', {
    ...propertyPath,
    body: { utility_type: 'water', unit: 'kgal', tariff_id: tariff.data.id },
  });
  if (!meter.data) throw new Error(`meter: ${meter.error?.detail}`);

  // The utility billed $40.00 for 12 kgal in June.
  const bill = await api.POST('/api/v1/pm/properties/{id}/bills', {
    ...propertyPath,
    body: { meter_id: meter.data.id, period_start: '2026-06-01', period_end: '2026-06-30', amount: 40, usage: 12 },
  });
  if (!bill.data) throw new Error(`bill: ${bill.error?.detail}`);

  const audit = await api.GET('/api/v1/pm/bills/{id}/audit', { params: { path: { id: bill.data.id } } });
  if (!audit.data) throw new Error(`audit: ${audit.error?.detail}`);
  // expected $31.51 (3 x 1.30 + 7 x 1.80 + 2 x 2.55 + 9.91): a price_variance of +$8.49 (+26.9 %)
  return audit.data;
}
