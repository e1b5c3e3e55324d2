import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Log } from '../sync/log';

/**
 * GET /metrics in Prometheus's text format on an address of its own (loopback unless a private one is named), so
 * metrics are never served beside a public port; anything else is 404. The API and the agent both serve theirs so.
 * An address already in use (another process left at the default port) leaves the process without metrics, with a
 * warning, never a failed start.
 */
export async function serveMetrics(registry: Registry, o: { host: string; port: number; log: Log }) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => {
        o.log({ msg: 'metrics: not collected', error: err.message });
        res.writeHead(500).end();
      },
    );
  });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(o.port, o.host, () => resolve()));
  } catch (err) {
    o.log({ msg: 'metrics not served: set the metrics port to a free one', error: (err as Error).message, host: o.host, port: o.port });
    return undefined;
  }
  const { address, port } = server.address() as AddressInfo;
  o.log({ msg: 'metrics served at /metrics', address, port });
  return server;
}
