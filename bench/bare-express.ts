// The floor a request path is measured against (issue 13): a bare Express app answering a
// constant JSON body, with no middleware at all. `tsx bench/bare-express.ts <port> [stock|prototyped]`:
// `stock` is app.listen, as an Express app is usually run (the floor the targets are against);
// `prototyped` serves the same app from createHttpServer, as this service's web process does, so
// the report also shows how much of the floor is Express's per-request prototype change.
import express from 'express';
import { createHttpServer } from '../src/platform/http/server';

const [port = '8999', server = 'stock'] = process.argv.slice(2);
const app = express();
app.get('/', (_req, res) => {
  res.json({ status: 'ok' });
});
if (server === 'prototyped') createHttpServer(app).listen(Number(port), '127.0.0.1');
else app.listen(Number(port), '127.0.0.1');
