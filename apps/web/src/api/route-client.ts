import type { RouteDef } from '@edgekeep/contract/route';
import type { Tier } from '@edgekeep/contract/tiers';
import { z } from 'zod';
import { callRaw, download } from './client';
import type { Query } from './url';

/** A part of the request: absent where the route declares none, optional where every field may be left out. */
type Part<K extends string, T> = z.ZodType extends T
  ? { [k in K]?: never }
  : T extends z.ZodType
    ? // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends X`: every field of X may be left out
      {} extends z.input<T> ? { [k in K]?: z.input<T> } : { [k in K]: z.input<T> }
    : never;

/** Path parameters are written into the URL: a number stands for its digits. */
type PathValues<T> = { [K in keyof T]: T[K] extends string ? string | number : T[K] };
type ParamsPart<P> = z.ZodType extends P ? { params?: never } : P extends z.ZodType ? { params: PathValues<z.input<P>> } : never;

export type RouteInput<D> = D extends RouteDef<infer P, infer Q, infer B, z.ZodType>
  ? ParamsPart<P> & Part<'query', Q> & Part<'body', B> & { tier?: Tier; delayMs?: number }
  : never;
export type RouteOutput<D> = D extends RouteDef<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

type Loose = { params?: unknown; query?: unknown; body?: unknown; tier?: Tier; delayMs?: number };

/** The route's path with its `{param}`s filled in. */
export function routePath(route: Pick<RouteDef, 'path'>, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return route.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined || value === null || value === '') throw new Error(`${route.path} needs ${key}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The session a route is signed with: its own tier; for calls of any tier the caller's, and for public calls the one
 * the caller names, if any (a signed-in caller's branding is its own client's).
 */
const tierOf = (route: RouteDef, input: Loose): Tier | undefined => (route.public || route.tier === 'any' ? input.tier : route.tier);

const send = (route: RouteDef, input: Loose) =>
  callRaw(routePath(route, input.params), {
    method: route.method,
    tier: tierOf(route, input),
    query: input.query as Query | undefined,
    body: input.body,
    delayMs: input.delayMs,
  });

/**
 * One call of the contract's route table: its method, path and tier come from the route, the parts from its
 * schemas, and the answer is read with the route's response schema (text where the route answers text).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends X`: every field of X may be left out
export async function callRoute<D extends RouteDef>(route: D, ...[input]: {} extends RouteInput<D> ? [RouteInput<D>?] : [RouteInput<D>]): Promise<RouteOutput<D>> {
  const res = await send(route, (input ?? {}) as Loose);
  const raw = route.response instanceof z.ZodString ? await res.text() : await res.json();
  return route.response.parse(raw) as RouteOutput<D>;
}

/** The `data` of a `{ data }` answer. */
export const dataOf = async <T>(answer: Promise<{ data: T }>) => (await answer).data;

/** A route whose answer is a file: saves it under the name the server gives. */
export async function downloadRoute<D extends RouteDef>(route: D, input: RouteInput<D> & { fallbackName: string }) {
  const loose = input as Loose & { fallbackName: string };
  await download(routePath(route, loose.params), { method: route.method, tier: tierOf(route, loose), query: loose.query as Query | undefined, fallbackName: loose.fallbackName });
}
