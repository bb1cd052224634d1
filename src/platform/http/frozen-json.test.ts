import express from 'express';
import request from 'supertest';
import { deepFreeze, isFrozenAnswer, sendFrozenJson } from './frozen-json';

describe('frozen answers', () => {
  const answer = deepFreeze({ months: [{ month: '2026-10', total_cost: 1234.5 }], note: 'é' });

  function site() {
    const app = express();
    let stringified = 0;
    app.get('/json', (_req, res) => {
      res.json({ months: [{ month: '2026-10', total_cost: 1234.5 }], note: 'é' });
    });
    app.get('/frozen', (req, res) => {
      const spy = JSON.stringify;
      JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
        stringified += 1;
        return spy(...args);
      }) as typeof JSON.stringify;
      try {
        sendFrozenJson(req, res, 200, answer);
      } finally {
        JSON.stringify = spy;
      }
    });
    return { app, stringified: () => stringified };
  }

  it('freezes deeply', () => {
    expect(Object.isFrozen(answer.months[0])).toBe(true);
    expect(isFrozenAnswer(answer)).toBe(true);
    expect(isFrozenAnswer({ a: 1 })).toBe(false);
    expect(isFrozenAnswer(null)).toBe(false);
  });

  it('sends what res.json sends (body, type, ETag), serialises once, and answers 304 to a matching If-None-Match', async () => {
    const s = site();
    const plain = await request(s.app).get('/json').expect(200);
    const first = await request(s.app).get('/frozen').expect(200);
    const second = await request(s.app).get('/frozen').expect(200);
    for (const res of [first, second]) {
      expect(res.text).toBe(plain.text);
      expect(res.headers['content-type']).toBe(plain.headers['content-type']);
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(res.headers['content-length']).toBe(plain.headers['content-length']);
    }
    expect(s.stringified()).toBe(1);
    await request(s.app).get('/frozen').set('If-None-Match', plain.headers.etag).expect(304);
  });
});
