import { Codes, type Input, type Output, type RouteDef, type Tier } from '@edgekeep/contract';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodObject, type z } from 'zod';
import type { AppDeps } from '../deps';
import { answerText, JSON_TYPE, sendAnswer } from './answer';
import { authenticate, authenticateNode, type EdgeNode, type Principal } from './auth';
import { ApiError, validationError } from './errors';
import { keepAnswer, keptAnswer } from './kept-answers';

export type HandlerContext<D extends RouteDef> = {
  req: FastifyRequest;
  reply: FastifyReply;
  params: Input<D['params']>;
  query: Input<D['query']>;
  body: Input<D['body']>;
  /** The route's tier ('any' routes: the caller's tier). */
  tier: Tier;
  principal: D['public'] extends true ? undefined : Principal;
  /**
   * What the handler reads through: the app's, except in a kept route's handler, whose `db` is the handle through
   * which its reads are recorded (see `keepAnswer`). A kept route's handler reads through this, never through the
   * `deps` it was registered with.
   */
  deps: AppDeps;
};

export type Handler<D extends RouteDef> = (ctx: HandlerContext<D>) => Promise<Output<D['response']>>;

/** What the handler of an agent protocol call (`auth: 'node'`) receives: the calling node instead of an account. */
export type NodeHandlerContext<D extends RouteDef> = Omit<HandlerContext<D>, 'principal' | 'tier'> & { node: EdgeNode };

/** `user/site/{siteId}/domains` → `/api/v1/user/site/:siteId/domains`; an absolute path (the agent protocol's) stays. */
export const toUrl = (path: string) => (path.startsWith('/') ? path : `/api/v1/${path}`).replace(/\/$/, '').replace(/\{(\w+)\}/g, ':$1');

function parse<S extends z.ZodType | undefined>(schema: S, value: unknown, where: string) {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/**
 * A query parameter the route does not take is refused (101003), never ignored: a misspelt filter (`keyword` where the
 * call takes `keywords`) would otherwise answer the whole list as if it had applied.
 */
function refuseUnknownQuery(query: unknown, known: ReadonlySet<string>) {
  const unknown = Object.keys(query ?? {}).filter((k) => !known.has(k));
  if (!unknown.length) return;
  throw new ApiError(Codes.Parameter, { extra: { fields: unknown.map((field) => ({ in: 'query', field, message: 'not a parameter of this call' })) } });
}

declare module 'fastify' {
  interface FastifyRequest {
    routeDef?: RouteDef;
    principal?: Principal;
    edgeNode?: EdgeNode;
  }
}

/** The contract's routes that the app serves, for the OpenAPI document. */
export const served = new WeakMap<FastifyInstance, RouteDef[]>();

/**
 * The list a route is noted in: the first found up the chain of scopes (Fastify makes a plugin's scope an object
 * whose prototype is its parent), so a route served in a scope of its own (the agent's log batches) counts for the app.
 */
function servedList(app: FastifyInstance) {
  for (let scope: object | null = app; scope; scope = Object.getPrototypeOf(scope)) {
    const list = served.get(scope as FastifyInstance);
    if (list) return list;
  }
  const list: RouteDef[] = [];
  served.set(app, list);
  return list;
}

/**
 * Serves one route of the contract: authenticates the caller for the route's tier, validates params, query and
 * body, runs the handler and sends its answer as the response schema writes it (`sendAnswer`), which drops every
 * field the contract does not name.
 *
 * `kept`: a GET whose answer depends on the database alone (not on the clock, the analytics store, files or what the
 * process holds in memory) and writes nothing; its handler reads through the context's `deps`. Its answer is kept per
 * caller and URL and sent again as it is until a table its queries named is written (see `keepAnswer`); the caller is
 * still authenticated and its permission checked on every call.
 */
export function registerRoute<D extends RouteDef>(app: FastifyInstance, deps: AppDeps, def: D, handler: Handler<D>, opts: { kept?: boolean } = {}) {
  if (def.download) throw new Error(`${def.id} answers a file: register it with registerDownload`);
  if (def.auth === 'node') throw new Error(`${def.id} is called by a node: register it with registerNodeRoute`);
  if (opts.kept && def.method !== 'GET') throw new Error(`${def.id}: only the answer of a GET is kept`);
  const mode = opts.kept ? deps.config.keptAnswers : 'off';
  if (mode === 'off') return serve(app, deps, def, async (ctx) => sendAnswer(def, ctx, await handler(ctx)));
  /** In `check` mode: the answer kept for a request, which is read afresh all the same and must be the same. */
  const checked = new WeakMap<FastifyRequest, string>();
  const [sent, read] = (['sent', 'read'] as const).map((outcome) => deps.metrics.keptAnswers.labels(def.path, outcome));
  serve(
    app,
    deps,
    def,
    async (ctx) => {
      const text = await keepAnswer(deps.db, keyOf(ctx.req), async (db) => answerText(def, ctx, await handler({ ...ctx, deps: { ...deps, db } })));
      const kept = checked.get(ctx.req);
      if (kept !== undefined && kept !== text) throw new Error(`${def.id}: the answer kept for ${ctx.req.url} is not what the database holds`);
      return ctx.reply.type(JSON_TYPE).send(text);
    },
    (req) => {
      const kept = keptAnswer(deps.db, keyOf(req));
      const counted = (answer: string | undefined) => ((answer === undefined ? read : sent).inc(), answer);
      if (mode === 'on') return kept instanceof Promise ? kept.then(counted) : counted(kept);
      const check = (answer: string | undefined) => void (counted(answer) !== undefined && checked.set(req, answer!));
      return kept instanceof Promise ? kept.then(check) : check(kept);
    },
  );
}

/**
 * What a kept answer is kept under: who asks, as far as the principal shapes what a handler answers (its account and
 * tier, whether it is its tenant's root, its session's kind, who switched into it), and the URL.
 */
function keyOf(req: FastifyRequest) {
  const p = req.principal;
  return p ? `${p.tier} ${p.accountId} ${p.isRoot} ${p.sessionKind} ${p.proxyAccountId} ${req.url}` : `public ${req.url}`;
}

/**
 * Serves a call of the agent protocol: the node is known by its credential before anything else is read.
 * `checked`: the handler answers what it already read through the response schema (the node's state, checked as it
 * is built and shared by the nodes of a revision), sent without reading it again.
 */
export function registerNodeRoute<D extends RouteDef>(
  app: FastifyInstance,
  deps: AppDeps,
  def: D,
  handler: (ctx: NodeHandlerContext<D>) => Promise<Output<D['response']>>,
  opts: { checked?: boolean } = {},
) {
  if (def.auth !== 'node') throw new Error(`${def.id} is called with an account's token: register it with registerRoute`);
  serve(app, deps, def, async (ctx) => {
    const answer = await handler({ ...ctx, node: ctx.req.edgeNode! });
    return opts.checked ? ctx.reply.send(answer) : sendAnswer(def, ctx, answer);
  });
}

/** Serves a `download` route: the handler sets the headers and its stream is sent as it is. */
export function registerDownload<D extends RouteDef>(app: FastifyInstance, deps: AppDeps, def: D, handler: (ctx: HandlerContext<D>) => Promise<Readable>) {
  if (!def.download) throw new Error(`${def.id} answers JSON: register it with registerRoute`);
  serve(app, deps, def, async (ctx) => ctx.reply.send(await handler(ctx)));
}

/** `kept`: the answer kept for the request, sent as it is (a URL answered before was valid then, and is not parsed again). */
function serve<D extends RouteDef>(
  app: FastifyInstance,
  deps: AppDeps,
  def: D,
  answer: (ctx: HandlerContext<D>) => Promise<FastifyReply>,
  kept?: (req: FastifyRequest) => string | undefined | Promise<string | undefined>,
) {
  if (def.query && !(def.query instanceof ZodObject)) throw new Error(`${def.id}: a query is an object of named parameters`);
  const queryKeys = new Set(def.query ? Object.keys((def.query as ZodObject).shape) : []);
  servedList(app).push(def);
  app.route({
    method: def.method,
    url: toUrl(def.path),
    // The caller is known before the body is read: a body refused unparsed is still written to the operation log
    // under its caller, and a stranger's body is never parsed.
    onRequest: async (req) => {
      req.routeDef = def;
      if (def.auth === 'node') return void (req.edgeNode = await authenticateNode(deps, req));
      const principal = def.public ? undefined : await authenticate(deps, req, def.tier);
      req.principal = principal;
      if (def.permission && !principal?.permissions.has(def.permission)) {
        throw new ApiError(Codes.PermissionDenied, { extra: { permission: def.permission } });
      }
    },
    handler: async (req, reply) => {
      let known = kept?.(req);
      // SQLite answers at once: a call it answers waits for no promise
      if (known instanceof Promise) known = await known;
      if (known !== undefined) return reply.type(JSON_TYPE).send(known);
      const principal = req.principal;
      const params = parse(def.params, req.params, 'params');
      refuseUnknownQuery(req.query, queryKeys);
      return answer({
        req,
        reply,
        params,
        query: parse(def.query, req.query, 'query'),
        body: parse(def.body, req.body, 'body'),
        tier: def.tier === 'any' ? (principal?.tier ?? 'user') : def.tier,
        principal,
        deps,
      } as HandlerContext<D>);
    },
  });
}
