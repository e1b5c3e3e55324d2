import { logRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerDownload, registerRoute } from '../../http/route';
import { exportRunner } from './runner';
import * as logExports from './service';

export function logExportsModule(app: FastifyInstance, deps: AppDeps) {
  const runner = exportRunner(deps);
  for (const r of [logRoutes.user, logRoutes.client]) {
    registerRoute(app, deps, r.apply, async ({ principal, body }) => ({ data: await logExports.applyExport(deps, runner, principal, body) }));
    registerRoute(app, deps, r.list, async ({ principal, query }) => logExports.listExports(deps, principal, query));
    registerRoute(app, deps, r.get, async ({ principal, params }) => ({ data: await logExports.getExport(deps, principal, params.ID) }));
    registerDownload(app, deps, r.download, async ({ principal, params, reply }) => {
      const { stream, fileName } = await logExports.exportDownload(deps, principal, params.ID);
      reply.type('application/gzip').header('Content-Disposition', `attachment; filename="${fileName}"`);
      return stream;
    });
    registerRoute(app, deps, r.remove, async ({ principal, body }) => {
      await logExports.removeExports(deps, principal, body.ids);
      return { data: { ok: true } };
    });
    registerRoute(app, deps, r.retry, async ({ principal, body }) => ({ data: await logExports.retryExports(deps, runner, principal, body.ids) }));
  }
  app.addHook('onReady', runner.resume);
  app.addHook('onClose', runner.stop);
}
