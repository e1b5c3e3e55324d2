import type { z } from 'zod';
import { TIERS, type Tier } from './tiers';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of the API. `path` is relative to /api/v1 and written as the spec writes it
 * (`user/site/{siteId}/domains`), or absolute for the agent protocol (`/agent/v1/state`). `tier` is the area whose
 * token the call needs; `public` calls need none, `any` calls take a token of any tier. `auth: 'node'` calls take an
 * edge node's credential instead of an account's token (`Authorization: Node <credential>`), whatever `tier` says.
 */
export type RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> = {
  id: string;
  method: HttpMethod;
  path: string;
  tier: Tier | 'any';
  public?: boolean;
  auth?: 'node';
  /** The permission key the caller must hold (spec §6); absent for self-service calls. */
  permission?: string;
  /** A POST that only reads (a query with a body): not written to the operation log. */
  readOnly?: boolean;
  /** The answer is a file that the handler sends itself (a stream); the response schema only documents it. */
  download?: boolean;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
};

export const defineRoute = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
) => def;

/** What a handler receives for a part of the request (undefined where the route declares none). */
export type Input<T> = [Exclude<T, undefined>] extends [z.ZodType] ? z.infer<Exclude<T, undefined>> : undefined;
/** What a handler answers: the input side of the response schema, which then picks the fields sent. */
export type Output<T> = [Exclude<T, undefined>] extends [z.ZodType] ? z.input<Exclude<T, undefined>> : undefined;

/** The same call on each of the three areas, keyed by tier. */
export const perTier = <D extends RouteDef>(make: (tier: Tier) => D) =>
  Object.fromEntries(TIERS.map((t) => [t, make(t)])) as Record<Tier, D>;

/** Every route definition found in a module's exports (route tables nest them in objects keyed by name or tier). */
export function routesOf(module: object): RouteDef[] {
  const routes: RouteDef[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object' || seen.has(v) || '_zod' in v) return;
    seen.add(v);
    const r = v as Partial<RouteDef>;
    if (typeof r.id === 'string' && typeof r.path === 'string' && typeof r.tier === 'string') return void routes.push(r as RouteDef);
    for (const x of Object.values(v)) walk(x);
  };
  walk(module);
  return routes;
}
