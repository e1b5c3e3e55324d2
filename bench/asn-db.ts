import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { percentile } from './stats';

const ROOT = join(import.meta.dirname, '..');
type Build = { ms: number; peakRssKb: number; baselineRssKb: number; nodeCount: number; recordSize: number; bytes: number };

/**
 * The ASN database an edge node builds once per data version from @ip-location-db/asn (all of its ~515k IPv4 and
 * IPv6 ranges): build time, the building process's peak RSS (and that of the same process before it started), the
 * database's size. Each round runs in a fresh process.
 */
export const asn = async ({ rounds = 3 }: { rounds?: number } = {}) => {
  const builds: Build[] = [];
  for (let i = 0; i < rounds; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/asn-db-build.ts')], { cwd: ROOT });
    builds.push(JSON.parse(stdout) as Build);
  }
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const result = {
    p50Ms: percentile({ samples: builds.map((b) => b.ms), p: 50 }),
    maxMs: Math.max(...builds.map((b) => b.ms)),
    peakRssKb: Math.max(...builds.map((b) => b.peakRssKb)),
    baselineRssKb: Math.max(...builds.map((b) => b.baselineRssKb)),
    nodeCount: builds[0].nodeCount,
    recordSize: builds[0].recordSize,
    bytes: builds[0].bytes,
  };
  console.log(
    `asn: full build p50 ${(result.p50Ms / 1000).toFixed(2)} s · max ${(result.maxMs / 1000).toFixed(2)} s (n=${rounds}) · peak RSS ${mb(result.peakRssKb)} ` +
      `(${mb(result.baselineRssKb)} before building) · ${(result.bytes / 2 ** 20).toFixed(1)} MiB, ${result.nodeCount} nodes, ${result.recordSize}-bit records`,
  );
  return result;
};
