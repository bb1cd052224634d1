// The floor a request path is measured against (issue 13): a stock Express app started with
// app.listen, answering a constant JSON body with no middleware. `tsx bench/bare-express.ts <port>`.
// GET /bytes/<n> answers a constant JSON body of n bytes: the floor of an answer that size.
import express from 'express';

const [port = '8999'] = process.argv.slice(2);
const app = express();
app.get('/', (_req, res) => {
  res.json({ status: 'ok' });
});
const bodies = new Map<number, Buffer>();
app.get('/bytes/:n', (req, res) => {
  const n = Math.max(2, Math.min(50_000_000, Number(req.params.n) || 2));
  let body = bodies.get(n);
  if (!body) {
    body = Buffer.from(`"${'x'.repeat(n - 2)}"`);
    bodies.set(n, body);
  }
  res.type('json').send(body);
});
app.listen(Number(port), '127.0.0.1');
