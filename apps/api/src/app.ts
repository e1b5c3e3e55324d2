import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { AppDeps } from './deps';
import { installErrorHandling } from './http/errors';
import { registerDocs } from './http/openapi';
import { registerWeb } from './http/web';
import { MODULES } from './modules';

/** Builds the whole app without listening, so tests drive it with `app.inject()`. */
export async function buildApp(deps: AppDeps, opts: { logger?: FastifyServerOptions['loggerInstance'] } = {}) {
  const app = Fastify({
    loggerInstance: opts.logger ?? deps.log,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: deps.config.trustProxy,
    bodyLimit: 10 * 1024 * 1024,
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // An empty body with a JSON content type is no body, not a parse error.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch (err) {
      (err as { statusCode?: number }).statusCode = 400;
      done(err as Error, undefined);
    }
  });
  installErrorHandling(app);
  for (const register of MODULES) register(app, deps);
  await registerDocs(app);
  await registerWeb(app, deps.config.webDist);
  return app;
}
