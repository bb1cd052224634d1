/** OpenAPI examples of the PMS link endpoints (the README tour's property and connection). */
export const link = {
  property_id: '9b2f4c1e-5d7a-4e0b-8c3f-2a6d1e9b7c40',
  connection_id: 'conn_8f2a',
  pms_property_id: 'prop_1042',
  linked_at: '2026-02-03T09:20:00.000Z',
  last_synced_at: '2026-02-03T09:20:02.412Z',
  last_sync_error: null,
};

export const linkSession = {
  id: '3c9e1f2a-7b4d-4e8a-9f10-5d2c6b8a1e47',
  link_token: 'pmslink_Jr3kQ9vX2mW7bT5nY8pL1cF4hD6sA0zE_uGiKoNqRtV',
  expires_at: '2026-02-03T10:19:41.000Z',
};

export const unitsPage = {
  items: [
    {
      id: '0d6e2a4b-1c3f-4b5a-9e7d-8f2c1a3b4d5e',
      pms_unit_id: 'unit_77',
      unit_number: '4B',
      sqft: 812,
      bedrooms: 2,
      bathrooms: 1,
      status: 'occupied',
      resident_name: 'Ben Okafor',
      occupant_count: 2,
      lease_start: '2025-09-01',
      lease_end: '2026-08-31',
      updated_at: '2026-03-02T14:05:10.118Z',
    },
    {
      id: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      pms_unit_id: 'unit_78',
      unit_number: '4C',
      sqft: 640,
      bedrooms: 1,
      bathrooms: 1,
      status: 'vacant',
      resident_name: null,
      occupant_count: null,
      lease_start: null,
      lease_end: null,
      updated_at: '2026-03-01T08:00:03.551Z',
    },
  ],
  total: 2,
  page: 1,
  per_page: 20,
  pages: 1,
};
