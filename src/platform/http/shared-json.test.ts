import express from 'express';
import request from 'supertest';
import { sendSharedJson } from './shared-json';

describe('sendSharedJson', () => {
  let serialisations = 0;
  const counted = (value: object) => ({ ...value, toJSON() { serialisations += 1; return value; } });
  /** A list as large as a few hundred properties: over the size that is worth compressing. */
  const list = (score: number) => ({ properties: Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, name: `Property ${i}`, score })) });
  let current: object = Object.freeze(counted(list(87)));
  const app = express();
  app.get('/answer', (req, res, next) => { sendSharedJson(req, res, current).catch(next); });
  const identity = () => request(app).get('/answer').set('Accept-Encoding', 'identity');

  beforeEach(() => { serialisations = 0; });

  it('serialises an object once for every request that sends it, with the ETag Express would give', async () => {
    current = Object.freeze(counted(list(87)));
    const first = await identity().expect(200);
    const second = await identity().expect(200);
    expect(first.body).toEqual(list(87));
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers.vary).toBe('Accept-Encoding');
    expect(second.text).toBe(first.text);
    expect(serialisations).toBe(1);
    // Express's default ETag of the same body (res.json), computed by a plain app.
    const plain = express().get('/answer', (_req, res) => { res.json(list(87)); });
    const expected = await request(plain).get('/answer');
    expect(first.headers.etag).toBe(expected.headers.etag);
  });

  it('gzips the same text once for clients that accept it; the ETag is the same for both codings', async () => {
    current = Object.freeze(counted(list(64)));
    const plain = await identity().expect(200);
    const zipped = await request(app).get('/answer').set('Accept-Encoding', 'gzip, deflate, br')
      .buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      }).expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Number(zipped.headers['content-length'])).toBeLessThan(Buffer.byteLength(plain.text) / 4);
    // superagent has gunzipped the stream: what arrived compressed decodes to the same JSON text.
    expect((zipped.body as Buffer).toString()).toBe(plain.text);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(serialisations).toBe(1);
  });

  it('sends a small answer uncompressed whatever the client accepts', async () => {
    current = Object.freeze({ summary: { total: 3 } });
    const res = await request(app).get('/answer').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toEqual({ summary: { total: 3 } });
  });

  it('answers a conditional request for the same object with 304 and no body', async () => {
    const first = await identity().expect(200);
    const again = await identity().set('If-None-Match', first.headers.etag).expect(304);
    expect(again.text).toBe('');
    await request(app).get('/answer').set('Accept-Encoding', 'gzip').set('If-None-Match', first.headers.etag).expect(304);
  });

  it('serialises another object on its own: a new answer is never the old text', async () => {
    current = Object.freeze(counted(list(1)));
    const before = await identity().expect(200);
    current = Object.freeze(counted(list(42)));
    serialisations = 0;
    const after = await identity().set('If-None-Match', before.headers.etag).expect(200);
    expect(after.body).toEqual(list(42));
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(serialisations).toBe(1);
  });
});
