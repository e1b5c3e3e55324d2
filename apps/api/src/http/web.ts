import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { Codes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

/**
 * Serves the built console from `/`. Any other GET that is not an API call gets index.html, so the console's
 * router handles `/admin/*`, `/client/*`, `/user/*` and its own redirects; unknown API paths answer 101004, a missing
 * file under `/assets/` 404. The files under `/assets/` are named by their content and cached for good.
 */
export async function registerWeb(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? path.join(webDist, 'index.html') : undefined;
  const hasWeb = index !== undefined && fs.existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist!,
      prefix: '/',
      wildcard: false,
      index: false,
      // A built script or style is named by its content: a browser keeps it for good instead of asking again on every load.
      setHeaders: (reply, file) => {
        if (path.relative(webDist!, file).startsWith(`assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url.startsWith('/api/') || req.url === '/api' || req.url.startsWith('/agent/');
    // A script or style that is not there is missing, not a screen: the browser must see the failure.
    if (req.url.startsWith('/assets/')) return reply.code(404).type('text/plain').send('not found');
    if (!isApi && hasWeb && req.method === 'GET') {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(index!));
    }
    throw new ApiError(Codes.PathInvalid, { extra: `${req.method} ${req.url.split('?')[0]}` });
  });
}
