import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { closeRuntime, createLogger, ensureRootAdmin, openRuntime } from '../apps/api/src/runtime';

/** The API as server.ts starts it (no demo), on a port of the system's choosing, for the analytics ingest rounds. */
export const startApi = async (dataDir: string) => {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', WEB_DIST: '', ADMIN_PASSWORD: 'bench-admin-password' });
  const deps = await openRuntime(config, createLogger(config.logLevel));
  await ensureRootAdmin(deps);
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    deps,
    close: async () => {
      await app.close();
      await closeRuntime(deps);
    },
  };
};
