import { createTestApp, type TestApp } from '../helpers/app';
import { registerUser } from '../helpers/users';
import { as, createMeter, createProperty } from './helpers';

describe('interval import: files that end the reading early', () => {
  let t: TestApp;
  let alice: string;
  let meter: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-15T12:00:00Z') });
    alice = (await registerUser(t)).token;
    const p = await createProperty(t, alice, { city: 'New York', state: 'NY', zip_code: '10001' });
    meter = (await createMeter(t, alice, p.id, { utility_type: 'electric' })).id;
  });
  afterAll(() => t.stop());

  it('a long CSV without a known header is a 422, the rest of the upload read and dropped', async () => {
    const csv = ['a,b,c', ...Array.from({ length: 200_000 }, (_, i) => `${i},x,y`)].join('\n');
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, csv, 'big.csv').expect(422);
    expect(res.body.detail).toMatch(/no header row of a known layout in its first 50 rows/);
  });

  it('a long XML document of another kind is a 422 at its root element', async () => {
    const xml = `<?xml version="1.0"?><html>${'<p>text</p>'.repeat(200_000)}</html>`;
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, xml, 'page.xml').expect(422);
    expect(res.body.detail).toMatch(/root element is <html>/);
  });

  it('the meter still imports afterwards', async () => {
    const csv = 'start,end,kwh\n2020-01-01T00:00:00-05:00,2020-01-01T00:15:00-05:00,1.5\n';
    const res = await as(t, alice).upload(`/pm/meters/${meter}/intervals`, csv, 'ok.csv').expect(200);
    expect(res.body).toMatchObject({ stored: 1 });
  });
});
