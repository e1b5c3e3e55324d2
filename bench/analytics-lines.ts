import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { agentProtocol } from '@edgekeep/contract';

const pick = <T>(list: T[], i: number) => list[i % list.length];
const agents = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'curl/8.5.0'];

/** Line `i` of `lines` realistic access lines (20 sites, the last one now), ending at `offset` in its log file. */
const line = ({ i, lines, offset }: { i: number; lines: number; offset: number }) =>
  JSON.stringify({
    time: new Date(Date.now() - (lines - i) * 10).toISOString(), siteId: 1 + (i % 20), domain: `www${i % 3}.site${i % 20}.example.com`,
    clientIp: `203.0.${(i * 7) % 256}.${(i * 13) % 256}`, country: pick(['TW', 'CN', 'US', 'JP', 'DE'], i), asn: 'AS3462', method: pick(['GET', 'GET', 'GET', 'POST'], i),
    uri: `/assets/${i % 500}.js?v=${i % 7}`, status: pick([200, 200, 200, 304, 404, 403, 502], i), bytesSent: 500 + (i % 40_000), bytesReceived: 300 + (i % 700),
    requestTime: 0.012, upstreamTime: i % 3 ? 0.01 : null, cacheStatus: pick(['HIT', 'MISS', 'HIT', 'EXPIRED'], i), httpVersion: 'HTTP/2.0',
    referer: i % 4 ? '' : 'https://www.google.com/search?q=edge', userAgent: pick(agents, i), blockCause: i % 50 ? '' : 'waf',
    requestId: `${i.toString(16).padStart(32, '0')}`, scheme: 'https', region: 'Taipei City', city: 'Taipei', isp: 'Chunghwa Telecom',
    blockRule: i % 50 ? '' : '3:17', blockAction: i % 50 ? '' : 'block', offset,
  });

/**
 * Writes `lines` lines into `dir` as the batches `senders` nodes send when behind: node k's share of the lines, in full
 * batches (agentProtocol.LOG_BATCH_MAX), one file per batch named `node<k>-<n>.ndjson`, and the same gzipped as nodes
 * send it (`.ndjson.gz`).
 */
export const writeBatches = async ({ dir, lines, senders }: { dir: string; lines: number; senders: number }) => {
  const share = Math.ceil(lines / senders);
  const batch = agentProtocol.LOG_BATCH_MAX.lines;
  for (let node = 0; node < senders; node++) {
    const [from, to] = [node * share, Math.min(lines, (node + 1) * share)];
    for (let start = from, n = 0; start < to; start += batch, n++) {
      const text = Array.from({ length: Math.min(batch, to - start) }, (_, k) => line({ i: start + k, lines, offset: (start + k - from + 1) * 600 })).join('\n');
      const name = join(dir, `node${node}-${String(n).padStart(5, '0')}.ndjson`);
      await writeFile(name, `${text}\n`);
      await writeFile(`${name}.gz`, gzipSync(`${text}\n`));
    }
  }
};

/** Each node's batch files in `dir`, in sending order. */
export const batchFiles = async (dir: string) => {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.ndjson')).sort();
  const byNode = new Map<string, string[]>();
  for (const name of names) byNode.set(name.split('-')[0], [...(byNode.get(name.split('-')[0]) ?? []), join(dir, name)]);
  return [...byNode.values()];
};
