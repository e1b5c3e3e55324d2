import { Codes, infraSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, validationError } from '../../http/errors';
import { queueForZone } from '../site-settings/node-queue';
import { clientOf, ownedZone, visibleZone } from './service';
import { readZoneSettings, type ZoneSettings } from './defaults';

export async function zoneSettings(deps: AppDeps, principal: Principal, zoneId: number): Promise<ZoneSettings> {
  const zone = await visibleZone(deps, await clientOf(deps, principal), zoneId);
  return readZoneSettings(zone.settings);
}

/**
 * The debian nginx of the edge nodes (1.22, `nginx -V`) is built without http_v3_module: turning HTTP/3 on is
 * refused rather than pretended.
 */
const HTTP3_REFUSED = 'HTTP/3 needs nginx built with http_v3_module; the edge nginx of the nodes has none';

async function store(deps: AppDeps, zoneId: number, settings: ZoneSettings, bump: boolean) {
  await deps.db.updateTable('zones').set({ settings: JSON.stringify(settings), updated_at: now() }).where('id', '=', zoneId).execute();
  if (bump) await deps.revisions.bump(deps.db, [zoneId]);
  return settings;
}

type Editable = Exclude<keyof ZoneSettings, 'preheatCaches'>;

/** Every node of the zone listens on its web ports and its sites' layer-4 ports alike: a port is one or the other (101025 names the clash). */
async function assertNoLayer4Clash(deps: AppDeps, zoneId: number, { httpPorts, httpsPorts }: ZoneSettings['ports']) {
  const web = [...httpPorts, ...httpsPorts];
  const clash = await deps.db
    .selectFrom('l4_ports')
    .innerJoin('sites', 'sites.id', 'l4_ports.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select('l4_ports.port')
    .where('products.zone_id', '=', zoneId)
    .where('l4_ports.port', 'in', web)
    .execute();
  if (clash.length) throw new ApiError(Codes.Duplicated, { extra: { ports: [...new Set(clash.map((r) => r.port))].sort((a, b) => a - b) } });
}

/** Changes one part of a zone's settings and gives the zone's nodes a new revision to apply. Owner only. */
export async function setZoneSetting<K extends Editable>(deps: AppDeps, principal: Principal, zoneId: number, key: K, value: ZoneSettings[K]) {
  const zone = await ownedZone(deps, await clientOf(deps, principal), zoneId);
  if (key === 'http3' && (value as ZoneSettings['http3']).enabled) throw new ApiError(Codes.Parameter, { extra: HTTP3_REFUSED });
  if (key === 'ports') await assertNoLayer4Clash(deps, zoneId, value as ZoneSettings['ports']);
  return store(deps, zoneId, { ...readZoneSettings(zone.settings), [key]: value }, true);
}

/** Opens or closes one port: the zone's whole port list, changed by one, goes through the same rules as `ports`. */
export async function changeZonePort(deps: AppDeps, principal: Principal, zoneId: number, { type, port }: { type: 'http' | 'https'; port: number }, open: boolean) {
  const zone = await ownedZone(deps, await clientOf(deps, principal), zoneId);
  const { ports } = readZoneSettings(zone.settings);
  const list = type === 'http' ? ports.httpPorts : ports.httpsPorts;
  if (open && [...ports.httpPorts, ...ports.httpsPorts].includes(port)) throw new ApiError(Codes.Duplicated, { extra: { ports: [port] } });
  if (!open && !list.includes(port)) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'port', message: `${port} is not an open ${type} port of the zone` }] } });
  const changed = open ? [...list, port].sort((a, b) => a - b) : list.filter((p) => p !== port);
  const next = infraSchemas.zonePorts.safeParse({ ...ports, [type === 'http' ? 'httpPorts' : 'httpsPorts']: changed });
  if (!next.success) throw validationError(next.error, 'body');
  return setZoneSetting(deps, principal, zoneId, 'ports', next.data);
}

/** Empties every IP set of the zone; the sets keep their names. */
export async function flushIpsets(deps: AppDeps, principal: Principal, zoneId: number) {
  const zone = await ownedZone(deps, await clientOf(deps, principal), zoneId);
  const settings = readZoneSettings(zone.settings);
  return store(deps, zoneId, { ...settings, ipset: { sets: settings.ipset.sets.map((s) => ({ name: s.name, ips: [] })) } }, true);
}

/** Warms the cache of every enrolled node of the zone: each fetches the URLs through its own nginx. */
export async function preheatCaches(deps: AppDeps, principal: Principal, zoneId: number, body: z.infer<typeof infraSchemas.preheatCachesBody>) {
  const zone = await ownedZone(deps, await clientOf(deps, principal), zoneId);
  const { nodes } = await queueForZone(deps, principal, zoneId, 'warmCache', { urls: body.urls });
  const preheat = { urls: body.urls, commandIDs: nodes.map((n) => n.id), createdAt: now() };
  return store(deps, zoneId, { ...readZoneSettings(zone.settings), preheatCaches: preheat }, false);
}

/** The zone's last warm-up and how each node did. */
export async function preheatResult(deps: AppDeps, principal: Principal, zoneId: number) {
  const { preheatCaches: last } = await zoneSettings(deps, principal, zoneId);
  const nodes = last.commandIDs.length
    ? await deps.db
        .selectFrom('node_commands')
        .innerJoin('nodes', 'nodes.id', 'node_commands.node_id')
        .select(['nodes.id as nodeID', 'nodes.name as nodeName', 'node_commands.status', 'node_commands.message', 'node_commands.finished_at as finishedAt'])
        .where('node_commands.id', 'in', last.commandIDs)
        .orderBy('nodes.name')
        .execute()
    : [];
  return { urls: last.urls, createdAt: last.createdAt, nodes };
}
