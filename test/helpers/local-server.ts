/** Starting and stopping the fake providers' HTTP servers on the loopback interface. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1:`port` (0: any free port); resolves with the base URL. */
export async function listenLocally(server: http.Server, port = 0): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and every connection still open on it. */
export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A webhook receiver for `listenLocally`: keeps what it is sent (headers and raw body) and answers `state.status`. */
export function webhookReceiver() {
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  const state = { status: 200 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(state.status).end('ok');
    });
  });
  return { server, received, state };
}
