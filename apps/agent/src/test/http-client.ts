import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export type Reply = { status: number; headers: IncomingHttpHeaders; body: string; dropped: boolean };

/**
 * One plain HTTP request with any method, headers and body. A connection the server closes without an answer
 * (nginx 444) resolves as `dropped` rather than failing. A header given as a list is sent once per value.
 */
export const send = ({ port, host, path = '/', method = 'GET', headers = {}, body }: {
  port: number; host: string; path?: string; method?: string; headers?: Record<string, string | string[]>; body?: string;
}) =>
  new Promise<Reply>((resolve) => {
    const all = { host, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) }) };
    const req = request({ host: '127.0.0.1', port, path, method, headers: all, agent: false }, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, dropped: false }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.once('error', () => resolve({ status: 0, headers: {}, body: '', dropped: true }));
    req.end(body);
  });
