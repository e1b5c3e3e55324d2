import { cpus, loadavg } from 'node:os';
import { analyticsIngest, analyticsQuery } from './analytics';
import { acme } from './acme';
import { apiStart } from './api-start';
import { consoleLoad } from './console-load';
import { asn } from './asn-db';
import buildOnce from '../e2e/build-once';
import { dashboardPaint } from './dashboard-paint';
import { faults } from './faults';
import { instructions } from './instructions';
import { lists } from './lists';
import { overhead } from './overhead';
import { propagation } from './propagation';
import { scaleOut } from './scale-out';
import { stateBuild } from './state-build';
import { structural } from './structural';

/**
 * `npm run bench [propagation|structural|overhead|instructions|asn|analytics-ingest|analytics-query|dashboard-paint|acme|api-start|state-build|scale-out|lists|faults|console-load ...]`: runs the benchmarks (all by default) on
 * this machine and prints their figures; a target missed is said, not hidden.
 */
const benches = { propagation, structural, overhead, instructions, asn, 'analytics-ingest': analyticsIngest, 'analytics-query': analyticsQuery, 'dashboard-paint': dashboardPaint, acme, 'api-start': apiStart, 'state-build': stateBuild, 'scale-out': scaleOut, lists, faults, 'console-load': consoleLoad } as const;
type Name = keyof typeof benches;

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((a) => !(a in benches));
if (unknown.length) {
  console.error(`unknown benchmark: ${unknown.join(', ')} (choose from ${Object.keys(benches).join(', ')})`);
  process.exit(2);
}
const names = (asked.length ? asked : Object.keys(benches)) as Name[];
console.log(`EdgeKeep benchmarks · ${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · node ${process.version} · load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

/** The benchmarks that start the server as `npm start` does (the e2e harness's startServer): its build comes first, once. */
const BUILT: readonly Name[] = ['dashboard-paint', 'scale-out', 'faults', 'console-load'];
if (names.some((n) => BUILT.includes(n))) await buildOnce();

const results: Record<string, unknown> = {};
for (const name of names) {
  console.log(`\n== ${name}`);
  const started = performance.now();
  results[name] = await benches[name]();
  console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
console.log(`\n${JSON.stringify(results)}`);
process.exit(0);
