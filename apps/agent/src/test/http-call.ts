import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply = { status: number; headers: IncomingHttpHeaders; body: string };

/** One HTTP request to 127.0.0.1 with any method and headers (Host included). */
export const httpCall = ({ port, method = 'GET', path = '/', headers }: { port: number; method?: string; path?: string; headers: Record<string, string> }) =>
  new Promise<Reply>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
  });

/** An origin that answers with the request it got: method, url and headers, and a header of its own. */
export const startMirror = async () => {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-powered-by', 'origin');
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
};
