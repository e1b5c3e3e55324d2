import { ITEM_LIST_MAX } from '@edgekeep/contract';
import { startStack } from './stack';

type Memory = Awaited<ReturnType<Awaited<ReturnType<typeof startStack>>['memory']>>;
import { sleep, summary, until } from './stats';

/** STRUCTURAL_SIZES=10000,100000: the numbers of domains configured, one platform each. */
const sizesAsked = process.env.STRUCTURAL_SIZES?.split(',').map(Number);

/**
 * A structural change with many domains configured: the time from the API's 200 for one new domain to nginx
 * serving it (state fetch, the data pushed to the Lua runtime for a live domain; render, nginx -t, preflight and
 * reload for one that needs a server block), the reloads it took, and the edge's data dictionary per live domain;
 * then the agent's and nginx's memory, and a fresh node put in the node's place: enrolment → every domain served.
 * Each size runs on a fresh platform.
 */
export const structural = async ({ sizes = sizesAsked ?? [1000, 10_000], samples = 20 }: { sizes?: number[]; samples?: number } = {}) => {
  const results: Record<number, { times: number[]; reloads: number; bytesPerDomain: number; firstApplyMs: number; freshNodeMs: number; memory: Memory; freshMemory: Memory }> = {};
  for (const size of sizes) {
    const stack = await startStack();
    try {
      const upstreams = [{ host: '127.0.0.1', port: stack.origin.port }];
      const started = performance.now();
      for (let made = 0, part = 0; made < size; part++) {
        const count = Math.min(ITEM_LIST_MAX, size - made);
        const site = part === 0 ? stack.site : await stack.newSite(`bench-${part}`);
        const domains = Array.from({ length: count }, (_, i) => `d${made + i}.bench.test`);
        await stack.call('POST', `user/site/${site}/domains`, { body: { domains, upstreams } });
        made += count;
      }
      await stack.settled();
      const firstApplyMs = performance.now() - started;
      if ((await stack.served({ host: `d${size - 1}.bench.test` })).status !== 200) throw new Error('the configured domains are not served');

      // The new domains go to a site of their own: a site holds at most ITEM_LIST_MAX domains.
      const fresh = await stack.newSite('bench-new');
      await stack.settled();
      // the runtime drops the generation a push replaced 5 s after it (edgekeep/live.lua)
      await sleep(6000);
      const held = await stack.edgeStatus();
      const loads = await stack.loads();
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const host = `new${i}.bench.test`;
        await stack.call('POST', `user/site/${fresh}/domains`, { body: { domains: host, upstreams } });
        const since = performance.now();
        times.push(await until({ what: `${host} to be served`, since, probe: async () => (await stack.served({ host })).status === 200, timeoutMs: 300_000 }));
        await stack.settled();
      }
      const reloads = (await stack.loads()) - loads;
      const bytesPerDomain = Math.round(held.dataBytes / Math.max(1, held.liveDomains));
      const memory = await stack.memory();

      // a fresh node in the node's place: enrolment → every domain served
      const enrolled = performance.now();
      await stack.freshNode();
      const last = `new${samples - 1}.bench.test`;
      // probed every 50 ms, not to take the CPU the node starts with
      while ((await stack.served({ host: last }).catch(() => ({ status: 0 }))).status !== 200) {
        if (performance.now() - enrolled > 600_000) throw new Error('the fresh node did not serve in 10 minutes');
        await sleep(50);
      }
      await stack.settled();
      const freshNodeMs = performance.now() - enrolled;
      if ((await stack.served({ host: `d${size - 1}.bench.test` })).status !== 200) throw new Error('the fresh node does not serve every domain');
      const freshMemory = await stack.memory();

      results[size] = { times, reloads, bytesPerDomain, firstApplyMs, freshNodeMs, memory, freshMemory };
      const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
      console.log(
        `structural: ${size} domains configured, one more → served: ${summary({ samples: times })}, ${reloads} reloads; ` +
          `${held.liveDomains} live domains, ek_data ${(held.dataBytes / 1024 / 1024).toFixed(1)} MiB in use (${bytesPerDomain} B a domain, every other datum included); ` +
          `creating the ${size} and applying them took ${(firstApplyMs / 1000).toFixed(1)} s; after the samples the agent ${mb(memory.agent)}, nginx's largest worker ${mb(memory.nginxWorker)} RSS; ` +
          `a fresh node from enrolment to serving every domain ${(freshNodeMs / 1000).toFixed(1)} s, then the agent ${mb(freshMemory.agent)}, nginx's largest worker ${mb(freshMemory.nginxWorker)}`,
      );
    } finally {
      await stack.stop();
    }
  }
  return results;
};
