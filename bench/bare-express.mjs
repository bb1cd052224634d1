// The floor a request path is measured against (issue 13): a bare Express app answering a
// constant JSON body, with no middleware at all. `node bench/bare-express.mjs <port>`.
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.json({ status: 'ok' });
});
app.listen(Number(process.argv[2] ?? 8999), '127.0.0.1');
