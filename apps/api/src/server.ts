import { buildApp } from './app';
import { ensureDemo } from './demo';
import { loadConfig } from './config';
import { closeRuntime, createLogger, ensureRootAdmin, openRuntime } from './runtime';

const config = loadConfig();
const log = createLogger(config.logLevel);
const deps = await openRuntime(config, log);
await ensureRootAdmin(deps);
if (config.demoPassword) await ensureDemo(deps, config.demoPassword);
const app = await buildApp(deps);
await app.listen({ port: config.port, host: config.host });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await closeRuntime(deps);
    process.exit(0);
  });
}
