import { networkSchemas } from '@edgekeep/contract';
import type { L4Dimension, L4Point, L4Scope } from '../../analytics/l4/types';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { filterSites } from '../statistics/scope';
import { resolveWindow, windowOf, type Window } from '../statistics/window';

type Filter = networkSchemas.NetworkFilter;
/** The tops and series of a tab: the store's dimension and the body's list of keys. */
export type Tab = { dimension: L4Dimension; keys: 'countries' | 'ips' | 'asns' };
export const TABS = {
  countries: { dimension: 'colo', keys: 'countries' },
  ips: { dimension: 'ip', keys: 'ips' },
  asns: { dimension: 'asn', keys: 'asns' },
} as const satisfies Record<string, Tab>;

const bits = (bytes: number) => bytes * 8;

/** The caller's chosen sites (own, or its users'), the window and the L4 filters as the store's scope. */
async function resolve(deps: AppDeps, principal: Principal, f: Filter): Promise<{ scope: L4Scope; window: Window }> {
  const window = resolveWindow(f);
  const { siteIds } = await filterSites(deps, principal, { reservedZone: f.reservedZone, reservedSite: f.reservedSite });
  return {
    window,
    scope: { siteIds, from: window.from, to: window.to, intervalMinutes: window.intervalMinutes, timeZone: window.timeZone, outcomes: f.outcomes, protocols: f.protocols },
  };
}

/** Each bucket's length in seconds (day buckets may be 23 or 25 hours long), the last one ending at the window's end. */
const bucketSeconds = (buckets: Date[], window: Window) =>
  buckets.map((b, i) => ((buckets[i + 1] ?? window.to).getTime() - b.getTime()) / 1000);

export async function sumBits(deps: AppDeps, principal: Principal, f: Filter) {
  const { scope, window } = await resolve(deps, principal, f);
  const { pass, drop } = await deps.analytics.l4.sums(scope);
  return {
    window: windowOf(window),
    pass: bits(pass.bytes),
    drop: bits(drop.bytes),
    total: bits(pass.bytes + drop.bytes),
    passConnections: pass.connections,
    dropConnections: drop.connections,
  };
}

export async function avgBitRate(deps: AppDeps, principal: Principal, f: Filter) {
  const { scope, window } = await resolve(deps, principal, f);
  const { buckets, points } = await deps.analytics.l4.series(scope, {});
  const seconds = bucketSeconds(buckets, window);
  const at = new Map(points.map((p) => [p.time.getTime(), p]));
  return {
    window: windowOf(window),
    data: buckets.map((b, i) => {
      const p = at.get(b.getTime());
      const [pass, drop] = [bits(p?.pass ?? 0) / seconds[i], bits(p?.drop ?? 0) / seconds[i]];
      return { time: b.toISOString(), pass, drop, total: pass + drop };
    }),
  };
}

export async function tops(deps: AppDeps, principal: Principal, f: Filter, tab: Tab) {
  const { scope, window } = await resolve(deps, principal, f);
  const rows = await deps.analytics.l4.top(scope, { dimension: tab.dimension, limit: f.top });
  const items = rows.map((r) => ({ key: r.key, bits: bits(r.bytes), connections: r.connections }));
  return { window: windowOf(window), noData: items.length === 0, measured: true, items };
}

/** One dense series per key: average bits per second per bucket. */
const keyedSeries = (o: { keys: string[]; buckets: Date[]; points: L4Point[]; window: Window }) => {
  const seconds = bucketSeconds(o.buckets, o.window);
  const at = new Map(o.points.map((p) => [`${p.key}\n${p.time.getTime()}`, p]));
  return o.keys.map((key) => ({
    key,
    data: o.buckets.map((b, i) => {
      const p = at.get(`${key}\n${b.getTime()}`);
      return { time: b.toISOString(), bitRate: bits((p?.pass ?? 0) + (p?.drop ?? 0)) / seconds[i] };
    }),
  }));
};

/** The bit rate of the keys asked for (from a tops answer), or of the top keys when the body names none. */
export async function keyedBitRate(deps: AppDeps, principal: Principal, f: Filter, tab: Tab) {
  const { scope, window } = await resolve(deps, principal, f);
  const keys = f[tab.keys] ?? (await deps.analytics.l4.top(scope, { dimension: tab.dimension, limit: f.top })).map((r) => r.key);
  const { buckets, points } = await deps.analytics.l4.series(scope, { dimension: tab.dimension, keys: [...new Set(keys)] });
  return { window: windowOf(window), measured: true, series: keyedSeries({ keys: [...new Set(keys)], buckets, points, window }) };
}

/** TCP flags are packet-level: the stream servers see connections, not packets, so nothing is measured. */
export async function tcpFlagTops(f: Filter) {
  return { window: windowOf(resolveWindow(f)), noData: true, measured: false, items: [] };
}
export async function tcpFlagBitRate(f: Filter) {
  return { window: windowOf(resolveWindow(f)), measured: false, series: [] };
}

const MEASURED: readonly string[] = networkSchemas.MEASURED_PROTOCOLS;
const askedProtocols = (f: Filter) => networkSchemas.L4_PROTOCOLS.filter((p) => !f.protocols?.length || f.protocols.includes(p));

export async function protocolBits(deps: AppDeps, principal: Principal, f: Filter) {
  const { scope, window } = await resolve(deps, principal, f);
  const rows = await deps.analytics.l4.top(scope, { dimension: 'protocol', limit: networkSchemas.L4_PROTOCOLS.length });
  return {
    window: windowOf(window),
    items: askedProtocols(f).map((protocol) => {
      if (!MEASURED.includes(protocol)) return { protocol, measured: false, bits: null, connections: null };
      const r = rows.find((x) => x.key === protocol);
      return { protocol, measured: true, bits: bits(r?.bytes ?? 0), connections: r?.connections ?? 0 };
    }),
  };
}

export async function protocolBitRate(deps: AppDeps, principal: Principal, f: Filter) {
  const { scope, window } = await resolve(deps, principal, f);
  const keys = askedProtocols(f).filter((p) => MEASURED.includes(p));
  const { buckets, points } = await deps.analytics.l4.series(scope, { dimension: 'protocol', keys });
  return { window: windowOf(window), measured: keys.length > 0, series: keyedSeries({ keys, buckets, points, window }) };
}
