import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { AppDeps } from './deps';
import { frameworkErrors, installErrorHandling } from './http/errors';
import { installJsonBody, MAX_BODY_BYTES } from './http/json-body';
import { registerDocs } from './http/openapi';
import { requestLogger } from './http/request-log';
import { registerWeb } from './http/web';
import { MODULES } from './modules';

/** Builds the whole app without listening, so tests drive it with `app.inject()`. */
export async function buildApp(deps: AppDeps, opts: { logger?: FastifyServerOptions['loggerInstance'] } = {}) {
  const app = Fastify({
    loggerInstance: opts.logger ?? deps.log,
    childLoggerFactory: requestLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: deps.config.trustProxy,
    bodyLimit: MAX_BODY_BYTES,
    frameworkErrors,
  });
  // Hooks that wait for nothing take Fastify's callback: an async one costs every call its promise.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({ method: req.method, route, status: reply.statusCode });
    deps.metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    done();
  });
  installJsonBody(app);
  installErrorHandling(app);
  for (const register of MODULES) register(app, deps);
  app.addHook('onReady', () => deps.scheduler.start());
  app.addHook('onClose', () => deps.scheduler.stop());
  await registerDocs(app);
  await registerWeb(app, deps.config.webDist);
  return app;
}
