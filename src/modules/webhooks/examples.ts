/** OpenAPI examples of the webhook receiver, log and dead letters. */

/** A unit's `data.update` as the provider sends it (the receiver's body). */
export const payload = {
  event: 'data.update',
  timestamp: '2026-03-02T14:05:09Z',
  connection_id: 'conn_8f2a',
  resource_type: 'unit',
  data: {
    id: 'unit_77',
    property_id: 'prop_1042',
    unit_number: '4B',
    sqft: 812,
    bedrooms: 2,
    bathrooms: 1,
    status: 'vacant',
    current_lease: null,
  },
  changes: { status: { old: 'occupied', new: 'vacant' } },
};

export const logEntry = {
  id: 'e4c1f0a2-7b3d-4e5f-9a1b-2c3d4e5f6a7b',
  received_at: '2026-03-02T14:05:09.481Z',
  event: 'data.update',
  resource_type: 'unit',
  connection_id: 'conn_8f2a',
  status: 'success',
  detail: 'unit 4B updated',
  payload,
};

export const logs = {
  items: [
    logEntry,
    {
      ...logEntry,
      id: 'b7a6c5d4-3e2f-4a1b-8c9d-0e1f2a3b4c5d',
      received_at: '2026-03-02T14:04:58.102Z',
      status: 'ignored',
      detail: 'stale',
      payload: { ...payload, timestamp: '2026-03-02T13:59:41Z' },
    },
  ],
  total: 2,
  page: 1,
  per_page: 50,
  pages: 1,
};

export const deadLetter = {
  ...logEntry,
  id: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
  status: 'failed',
  detail: 'connect ECONNREFUSED 127.0.0.1:5432',
  attempts: 5,
  dead_lettered_at: '2026-03-02T14:05:25.003Z',
};

export const deadLetters = { items: [deadLetter], total: 1, page: 1, per_page: 50, pages: 1 };

/** A replayed dead letter that succeeded: off the list, its log entry back to success. */
export const replayed = { ...deadLetter, status: 'success', detail: 'unit 4B updated', attempts: 6, dead_lettered_at: null };

export const receiveAnswer = { status: 'accepted', id: logEntry.id };
