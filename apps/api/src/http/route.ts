import { Codes, type Input, type Output, type RouteDef, type Tier } from '@edgekeep/contract';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import { authenticate, type Principal } from './auth';
import { ApiError, validationError } from './errors';

export type HandlerContext<D extends RouteDef> = {
  req: FastifyRequest;
  reply: FastifyReply;
  params: Input<D['params']>;
  query: Input<D['query']>;
  body: Input<D['body']>;
  /** The route's tier ('any' routes: the caller's tier). */
  tier: Tier;
  principal: D['public'] extends true ? undefined : Principal;
};

export type Handler<D extends RouteDef> = (ctx: HandlerContext<D>) => Promise<Output<D['response']>>;

/** `user/site/{siteId}/domains` → `/api/v1/user/site/:siteId/domains` */
export const toUrl = (path: string) => `/api/v1/${path}`.replace(/\/$/, '').replace(/\{(\w+)\}/g, ':$1');

function parse<S extends z.ZodType | undefined>(schema: S, value: unknown, where: string) {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

declare module 'fastify' {
  interface FastifyRequest {
    routeDef?: RouteDef;
    principal?: Principal;
  }
}

/** The contract's routes that the app serves, for the OpenAPI document. */
export const served = new WeakMap<FastifyInstance, RouteDef[]>();

/**
 * Serves one route of the contract: authenticates the caller for the route's tier, validates params, query and
 * body, runs the handler and sends its answer through the response schema, which drops every field the
 * contract does not name.
 */
export function registerRoute<D extends RouteDef>(app: FastifyInstance, deps: AppDeps, def: D, handler: Handler<D>) {
  if (def.download) throw new Error(`${def.id} answers a file: register it with registerDownload`);
  serve(app, deps, def, async (ctx) => {
    const out = def.response.safeParse(await handler(ctx));
    if (!out.success) {
      ctx.req.log.error({ route: def.id, issues: out.error.issues }, 'answer does not match the contract');
      throw new ApiError(Codes.Unknown);
    }
    return ctx.reply.send(out.data);
  });
}

/** Serves a `download` route: the handler sets the headers and its stream is sent as it is. */
export function registerDownload<D extends RouteDef>(app: FastifyInstance, deps: AppDeps, def: D, handler: (ctx: HandlerContext<D>) => Promise<Readable>) {
  if (!def.download) throw new Error(`${def.id} answers JSON: register it with registerRoute`);
  serve(app, deps, def, async (ctx) => ctx.reply.send(await handler(ctx)));
}

function serve<D extends RouteDef>(app: FastifyInstance, deps: AppDeps, def: D, answer: (ctx: HandlerContext<D>) => Promise<FastifyReply>) {
  const list = served.get(app) ?? [];
  list.push(def);
  served.set(app, list);
  app.route({
    method: def.method,
    url: toUrl(def.path),
    // The caller is known before the body is read: a body refused unparsed is still written to the operation log
    // under its caller, and a stranger's body is never parsed.
    onRequest: async (req) => {
      req.routeDef = def;
      const principal = def.public ? undefined : await authenticate(deps, req, def.tier);
      req.principal = principal;
      if (def.permission && !principal?.permissions.has(def.permission)) {
        throw new ApiError(Codes.PermissionDenied, { extra: { permission: def.permission } });
      }
    },
    handler: async (req, reply) => {
      const principal = req.principal;
      return answer({
        req,
        reply,
        params: parse(def.params, req.params, 'params'),
        query: parse(def.query, req.query, 'query'),
        body: parse(def.body, req.body, 'body'),
        tier: def.tier === 'any' ? (principal?.tier ?? 'user') : def.tier,
        principal,
      } as HandlerContext<D>);
    },
  });
}
