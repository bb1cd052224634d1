// The floor a request path is measured against (issue 13): a stock Express app started with
// app.listen, answering a constant JSON body with no middleware. `tsx bench/bare-express.ts <port>`.
import express from 'express';

const [port = '8999'] = process.argv.slice(2);
const app = express();
app.get('/', (_req, res) => {
  res.json({ status: 'ok' });
});
app.listen(Number(port), '127.0.0.1');
