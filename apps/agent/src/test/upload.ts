import { request, type IncomingHttpHeaders } from 'node:http';

/**
 * A POST of `bytes` to 127.0.0.1 (a GET without), with a Content-Length or, `chunked`, in 64 KiB chunks. An answer
 * that comes before the whole body was sent (nginx refusing it) is the answer. `accept`: the Accept header.
 */
export type Upload = { port: number; host: string; path: string; bytes?: number; chunked?: boolean; accept?: string };
export const upload = ({ port, host, path, bytes, chunked, accept }: Upload) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const headers: Record<string, string> = { host, ...(accept ? { accept } : {}) };
    if (bytes !== undefined) headers[chunked ? 'transfer-encoding' : 'content-length'] = chunked ? 'chunked' : String(bytes);
    const req = request({ host: '127.0.0.1', port, path, method: bytes === undefined ? 'GET' : 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: Date.now() - started }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: Date.now() - started }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    if (bytes === undefined) return void req.end();
    const chunk = Buffer.alloc(64 * 1024, 1);
    let left = bytes;
    const more = () => {
      while (left > 0) {
        const piece = chunk.subarray(0, Math.min(left, chunk.length));
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', more);
      }
      req.end();
    };
    more();
  });
