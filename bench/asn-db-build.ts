import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAsnDb } from '../apps/agent/src/geo/asn-db';

/**
 * One full build of the ASN database from the data package, as an agent does it at its first start, in a process of
 * its own so that its peak memory is its own; prints the figures as one JSON line.
 */
const dir = await mkdtemp(join(tmpdir(), 'ek-bench-asn-'));
try {
  const baselineRssKb = process.resourceUsage().maxRSS;
  const started = performance.now();
  const built = await ensureAsnDb({ file: join(dir, 'asn.mmdb') });
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, peakRssKb: process.resourceUsage().maxRSS, baselineRssKb, ...built }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
