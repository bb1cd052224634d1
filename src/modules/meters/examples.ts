/** OpenAPI examples of the meter endpoints. */

export const createMeterRequest = {
  utility_type: 'water',
  unit: 'kgal',
  name: 'Domestic water',
  account_number: '4410-2231-07',
  meter_number: 'W-118842',
};

export const meter = {
  id: '6f1c2a8e-3b7d-4c55-9a0e-1d2f3b4c5d6e',
  property_id: '2b9d7c1a-0e4f-4a6b-8c3d-5e6f7a8b9c0d',
  utility_type: 'water',
  unit: 'kgal',
  name: 'Domestic water',
  account_number: '4410-2231-07',
  meter_number: 'W-118842',
  tariff_id: null,
  supply_tariff_id: null,
  is_active: true,
  covers: 'whole_building',
  is_default: true,
  created_at: '2026-11-02T14:05:11.000Z',
  updated_at: '2026-11-02T14:05:11.000Z',
};
