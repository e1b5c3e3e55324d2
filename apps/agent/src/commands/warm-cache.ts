import http from 'node:http';
import https from 'node:https';

type Result = { url: string; ok: boolean; detail: string };

/** Fetches one URL from the local nginx (the URL's host as Host and SNI), reading the body so nginx stores it. */
const fetchThroughEdge = ({ url, httpPort, httpsPort }: { url: string; httpPort: number; httpsPort: number }) =>
  new Promise<Result>((resolve) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const options = {
      host: '127.0.0.1',
      port: secure ? httpsPort : httpPort,
      path: `${target.pathname}${target.search}`,
      headers: { host: target.hostname, 'user-agent': 'EdgeKeep-warm-cache', 'accept-encoding': 'gzip' },
      timeout: 60_000,
      ...(secure ? { servername: target.hostname, rejectUnauthorized: false } : {}),
    };
    const req = (secure ? https : http).get(options, (res) => {
      res.resume();
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({ url, ok: status < 400, detail: `${status} ${res.headers['x-cache'] ?? ''}`.trim() });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve({ url, ok: false, detail: err.message }));
  });

/** Warms the cache: every URL is fetched through this node's own nginx, a few at a time. */
export const warmUrls = async ({ urls, httpPort, httpsPort, parallel = 4 }: { urls: string[]; httpPort: number; httpsPort: number; parallel?: number }) => {
  const results: Result[] = [];
  for (let i = 0; i < urls.length; i += parallel) {
    results.push(...(await Promise.all(urls.slice(i, i + parallel).map((url) => fetchThroughEdge({ url, httpPort, httpsPort })))));
  }
  return results;
};
