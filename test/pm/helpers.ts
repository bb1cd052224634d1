import request from 'supertest';
import type { TestApp } from '../helpers/app';

/** A valid property create body; override any field. */
export function propertyBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Harbor Lofts',
    address: '100 Main St',
    city: 'Gladstone',
    state: 'MI',
    zip_code: '49837',
    property_type: 'commercial',
    ...overrides,
  };
}

/** Authenticated request helpers for one user. */
export function as(t: TestApp, token: string) {
  const auth = (r: request.Test) => r.set('Authorization', `Bearer ${token}`);
  return {
    get: (path: string) => auth(request(t.app).get(`/api/v1${path}`)),
    post: (path: string, body?: unknown) => auth(request(t.app).post(`/api/v1${path}`)).send(body as object),
    patch: (path: string, body?: unknown) => auth(request(t.app).patch(`/api/v1${path}`)).send(body as object),
    put: (path: string, body?: unknown) => auth(request(t.app).put(`/api/v1${path}`)).send(body as object),
    /** multipart upload of `csv` as field `file` */
    upload: (path: string, csv: string | Buffer, filename = 'bills.csv') =>
      auth(request(t.app).post(`/api/v1${path}`)).attach('file', Buffer.isBuffer(csv) ? csv : Buffer.from(csv), filename),
  };
}

/** The four calendar quarters of `year`, [first day, last day] each (YYYY-MM-DD). */
export const quartersOf = (year: number) =>
  (
    [
      ['01-01', '03-31'],
      ['04-01', '06-30'],
      ['07-01', '09-30'],
      ['10-01', '12-31'],
    ] as const
  ).map(([from, to]) => [`${year}-${from}`, `${year}-${to}`] as const);

export async function createProperty(t: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const res = await as(t, token).post('/pm/properties', propertyBody(overrides));
  if (res.status !== 201) throw new Error(`create property failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string } & Record<string, unknown>;
}

/** Posts a bill of the property (201, else the test fails) and answers it as stored. */
export async function createBill(t: TestApp, token: string, propertyId: string, body: Record<string, unknown>) {
  return (await as(t, token).post(`/pm/properties/${propertyId}/bills`, body).expect(201)).body as { id: string } & Record<string, unknown>;
}

/** Adds a meter to the property (201, else the test fails) and answers it as stored. */
export async function createMeter(t: TestApp, token: string, propertyId: string, body: Record<string, unknown>) {
  return (await as(t, token).post(`/pm/properties/${propertyId}/meters`, body).expect(201)).body as { id: string } & Record<
    string,
    unknown
  >;
}

export async function createPortfolio(t: TestApp, token: string, name = 'Midwest') {
  const res = await as(t, token).post('/pm/portfolios', { name });
  if (res.status !== 201) throw new Error(`create portfolio failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string };
}

/** Real bundled tariffs of City of Gladstone, Michigan (EIA 7265; serves ZIP 49837 only), commercial, flat, monthly fixed charge. */
export const GLADSTONE = {
  zip: '49837',
  /** Rate schedule C1-Commercial Service 1PH: $0.1217/kWh + $13.54/month */
  C1: '539f6a63ec4f024411ec8eb1',
  /** Rate Schedule C3- Commercial 3PH Non-City: $0.1241/kWh + $14.54/month (three-phase, outside the city: no rate for a C1 customer) */
  C3_NON_CITY: '539fb983ec4f024bc1dc23a9',
  /**
   * Rate Schedule SP1- Small Power 1PH( Over 15,000 kWh per Month): $0.1016/kWh + $18.54/month. Issue 45 replaced the
   * earlier fixture, "SP1- Small Power 1PH - Non city (Minimum 15,000 kWh per Month)" at $0.10: offered to a city
   * customer using 10,000 kWh on C1, it was a rate of another location for a larger customer.
   */
  SP1: '539fc30cec4f024c27d8b7ab',
};
