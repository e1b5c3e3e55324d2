import { request, type IncomingMessage } from 'node:http';
import type { Answer } from './servers';

/** A plain HTTP request to 127.0.0.1 with a chosen method, Host and other headers. */
export const send = ({ port, host, path = '/', method = 'GET', headers = {} }: { port: number; host: string; path?: string; method?: string; headers?: Record<string, string> }) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers }, agent: false }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
  });
