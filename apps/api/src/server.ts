import { buildApp } from './app';
import { ensureDemo } from './demo';
import { startDemoEdge } from './demo-edge';
import { loadConfig } from './config';
import { serveMetrics } from '@edgekeep/agent/metrics';
import { closeRuntime, createLogger, ensureRootAdmin, openRuntime } from './runtime';

const config = loadConfig();
const log = createLogger(config.logLevel);
const deps = await openRuntime(config, log);
await ensureRootAdmin(deps);
// the app first: its modules register the jobs that the demo's changes ask to run (the DNS sync)
const app = await buildApp(deps);
if (config.demoPassword) await ensureDemo(deps, config.demoPassword);
await app.listen({ port: config.port, host: config.host });
const metricsServer = config.metrics.port === undefined ? undefined : await serveMetrics(deps.metrics.registry, { host: config.metrics.host, port: config.metrics.port, log: ({ msg, ...rest }) => log.info(rest, msg) });
const demoEdge = config.demoPassword ? await startDemoEdge(deps) : undefined;

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await demoEdge?.stop().catch((err: Error) => log.error({ err: err.message }, 'demo edge: not stopped cleanly'));
    // Agents' watches wait up to AGENT_WATCH_SECONDS: once the server stops taking requests they are answered now;
    // a connection still open a second later (a client that went away mid-request) is cut.
    metricsServer?.close();
    const closed = app.close();
    deps.revisions.release();
    const cut = setTimeout(() => app.server.closeAllConnections(), 1000);
    await closed;
    clearTimeout(cut);
    await closeRuntime(deps);
    process.exit(0);
  });
}
