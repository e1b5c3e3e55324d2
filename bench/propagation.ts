import { startStack } from './stack';
import { percentile, summary, until } from './stats';

const HOST = 'propagation.bench.test';
/** Entries the blacklist already holds, so each change pushes a list of realistic size. */
const PRELOADED = 4000;

const preloadEntries = () => Array.from({ length: PRELOADED }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.${(i % 200) + 1}`);

/**
 * Propagation through the whole platform: the time from the API's 200 for a change to nginx enforcing it, on
 * loopback, with no reload. Blacklist: add 127.0.0.1 → the first 929 (the block page). Purge: purge a cached URL → the next MISS.
 */
export const propagation = async ({ samples = 200 }: { samples?: number } = {}) => {
  const stack = await startStack();
  try {
    const site = `user/site/${stack.site}`;
    await stack.call('POST', `${site}/domains`, { body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] } });
    await stack.call('POST', `${site}/cacheRule`, { body: { type: 'fileTypes', values: ['css'], seconds: 600, mode: 'force' } });
    await stack.call('POST', `${site}/firewall/setting/blacklists`, { body: { ips: preloadEntries() } });
    await stack.settled();
    const loadsBefore = await stack.loads();

    const blacklist: number[] = [];
    for (let i = 0; i < samples; i++) {
      const [entry] = await stack.call('POST', `${site}/firewall/setting/blacklists`, { body: { ips: '127.0.0.1' } });
      const since = performance.now();
      blacklist.push(await until({ what: 'the 929', since, probe: async () => (await stack.served({ host: HOST })).status === 929 }));
      // An enabled entry is closed before it can be removed.
      await stack.call('PUT', `${site}/firewall/setting/blacklists/enable`, { body: { ids: [entry.id], enabled: false } });
      await stack.call('DELETE', `${site}/firewall/setting/blacklists`, { body: { ids: [entry.id] } });
      await until({ what: 'the 200 again', since: performance.now(), probe: async () => (await stack.served({ host: HOST })).status === 200 });
    }

    const url = `http://${HOST}/style.css`;
    const cache = async () => (await stack.served({ host: HOST, path: '/style.css' })).headers['x-cache'];
    await until({ what: 'a cache HIT', since: performance.now(), probe: async () => (await cache()) === 'HIT' });
    const purge: number[] = [];
    for (let i = 0; i < samples; i++) {
      if ((await cache()) !== 'HIT') throw new Error('the URL is not cached before the purge');
      await stack.call('DELETE', `${site}/setting/urlCache`, { body: { type: 1, urls: [url] } });
      const since = performance.now();
      purge.push(await until({ what: 'the MISS', since, probe: async () => (await cache()) === 'MISS' }));
    }

    const reloads = (await stack.loads()) - loadsBefore;
    if (reloads !== 0) throw new Error(`nginx reloaded ${reloads} time(s) on a data-only path`);
    console.log(`propagation: blacklist add → first 929 (${PRELOADED} entries already listed): ${summary({ samples: blacklist })}`);
    console.log(`propagation: purge URL → next MISS: ${summary({ samples: purge })}`);
    console.log(`propagation: nginx reloads during the ${samples * 2} samples: ${reloads}`);
    return {
      blacklist: { p50: percentile({ samples: blacklist, p: 50 }), p99: percentile({ samples: blacklist, p: 99 }) },
      purge: { p50: percentile({ samples: purge, p: 50 }), p99: percentile({ samples: purge, p: 99 }) },
      reloads,
    };
  } finally {
    await stack.stop();
  }
};
