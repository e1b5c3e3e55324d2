import { networkRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as n from './service';

/** Spec §7 network calls (layer-4 attack analysis), user tier (own sites) and client tier (its users' sites). */
export function networkModule(app: FastifyInstance, deps: AppDeps) {
  for (const r of [networkRoutes.user, networkRoutes.client]) {
    registerRoute(app, deps, r.sumBits, async ({ principal, body }) => ({ data: await n.sumBits(deps, principal, body) }));
    registerRoute(app, deps, r.avgBitRate, async ({ principal, body }) => ({ data: await n.avgBitRate(deps, principal, body) }));
    registerRoute(app, deps, r.countryTops, async ({ principal, body }) => ({ data: await n.tops(deps, principal, body, n.TABS.countries) }));
    registerRoute(app, deps, r.countryBitRate, async ({ principal, body }) => ({ data: await n.keyedBitRate(deps, principal, body, n.TABS.countries) }));
    registerRoute(app, deps, r.ipTops, async ({ principal, body }) => ({ data: await n.tops(deps, principal, body, n.TABS.ips) }));
    registerRoute(app, deps, r.ipBitRate, async ({ principal, body }) => ({ data: await n.keyedBitRate(deps, principal, body, n.TABS.ips) }));
    registerRoute(app, deps, r.asnTops, async ({ principal, body }) => ({ data: await n.tops(deps, principal, body, n.TABS.asns) }));
    registerRoute(app, deps, r.asnBitRate, async ({ principal, body }) => ({ data: await n.keyedBitRate(deps, principal, body, n.TABS.asns) }));
    registerRoute(app, deps, r.tcpFlagTops, async ({ body }) => ({ data: await n.tcpFlagTops(body) }));
    registerRoute(app, deps, r.tcpFlagBitRate, async ({ body }) => ({ data: await n.tcpFlagBitRate(body) }));
    registerRoute(app, deps, r.protocolBits, async ({ principal, body }) => ({ data: await n.protocolBits(deps, principal, body) }));
    registerRoute(app, deps, r.protocolBitRate, async ({ principal, body }) => ({ data: await n.protocolBitRate(deps, principal, body) }));
  }
}
