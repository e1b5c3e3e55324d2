import tls from 'node:tls';
import { startPebble } from '../apps/api/test/pebble';
import { startStack } from './stack';
import { percentile, sleep, summary, until } from './stats';

/** Which issuer the edge presents for a name by SNI (empty while it presents its default certificate). */
const presentedIssuer = ({ port, servername }: { port: number; servername: string }) =>
  new Promise<string>((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const issuer = socket.getPeerCertificate().issuer?.CN ?? '';
      socket.end();
      resolve(String(issuer));
    });
    socket.on('error', () => resolve(''));
  });

/**
 * Automatic certificates against pebble through the whole platform (API, queue, agent, nginx): the time from
 * turning auto SSL on for a domain to the edge presenting the issued certificate by SNI (one domain at a time),
 * then how many orders one API instance completes per minute when a batch is switched on at once. Each domain has
 * a registered domain of its own, so the 50-per-7-days budget does not stop the run.
 */
export const acme = async ({ samples = 50, batch = 50 }: { samples?: number; batch?: number } = {}) => {
  const stack = await startStack({ env: { ACME_QUEUE_SECONDS: '1' } });
  const pebble = await startPebble({ httpPort: stack.httpPort });
  try {
    await stack.call('PUT', 'client/setting/system/zeroSSL', { ...stack.client, body: { provider: 'custom', directoryUrl: pebble.directoryUrl, caBundle: pebble.caBundle } });
    const site = `user/site/${stack.site}`;
    const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `www.${prefix}-${i}.com`);
    const add = async (list: string[]) => {
      const made = (await stack.call('POST', `${site}/domains`, { body: { domains: list.join('\n'), upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] } })) as { id: number; name: string }[];
      await stack.settled();
      return made;
    };

    const one = await add(names('acme-bench', samples));
    const served: number[] = [];
    for (const d of one) {
      await stack.call('POST', `${site}/domain/setting/autoSSL`, { body: { ids: [d.id], autoSSL: true } });
      const since = performance.now();
      served.push(await until({ what: `${d.name} served`, since, timeoutMs: 120_000, probe: async () => /Pebble/.test(await presentedIssuer({ port: stack.httpsPort, servername: d.name })) }));
    }
    console.log(`acme: auto SSL on → issued certificate served by SNI (pebble, one at a time): ${summary({ samples: served })}`);

    const many = await add(names('acme-batch', batch));
    const started = performance.now();
    await stack.call('POST', `${site}/domain/setting/autoSSL`, { body: { ids: many.map((d) => d.id), autoSSL: true } });
    const count = async (status: string) => ((await stack.call('GET', `client/autoCertificates?keyword=acme-batch&status=${status}&pageSize=500`, stack.client)) as unknown[]).length;
    for (;;) {
      const failed = await count('failed');
      if (failed) throw new Error(`${failed} orders of the batch failed`);
      if ((await count('completed')) === batch) break;
      if (performance.now() - started > 600_000) throw new Error('the batch did not complete in 10 minutes');
      await sleep(100);
    }
    const minutes = (performance.now() - started) / 60_000;
    const perMinute = batch / minutes;
    console.log(`acme: ${batch} orders switched on at once, completed in ${(minutes * 60).toFixed(1)} s: ${perMinute.toFixed(0)} orders per minute (one API instance)`);
    return { served: { p50: percentile({ samples: served, p: 50 }), p99: percentile({ samples: served, p: 99 }) }, ordersPerMinute: perMinute };
  } finally {
    await stack.stop();
    await pebble.stop();
  }
};
