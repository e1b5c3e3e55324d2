import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from './metrics';

/**
 * GET /metrics in Prometheus's text format on an address of its own (loopback unless METRICS_HOST names a private
 * one), so the metrics are never served beside the public API. Anything else is 404. An address already in use
 * (another instance on the machine left at the default port) leaves this instance without metrics, with a warning.
 */
export async function serveMetrics(metrics: Metrics, o: { host: string; port: number; log: Logger }) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: Error) => {
        o.log.error({ err: err.message }, 'metrics: not collected');
        res.writeHead(500).end();
      },
    );
  });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(o.port, o.host, () => resolve()));
  } catch (err) {
    o.log.warn({ err: (err as Error).message, host: o.host, port: o.port }, 'metrics not served: set METRICS_PORT to a free port');
    return undefined;
  }
  const { address, port } = server.address() as AddressInfo;
  o.log.info({ address, port }, 'metrics served at /metrics');
  return server;
}
