import { Codes, infraSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, validationError } from '../../http/errors';
import { commandsWithNodes } from '../nodes/commands-repo';
import { queueForZone } from '../site-settings/node-queue';
import { clientOf } from './service';
import { readZoneSettings, type ZoneSettings } from './defaults';
import { zonesRepo, type ReachedZone } from './repo';

type Zones = ReturnType<typeof zonesRepo>;
const zonesOf = async (deps: AppDeps, principal: Principal) => zonesRepo(deps, await clientOf(deps, principal));

export async function zoneSettings(deps: AppDeps, principal: Principal, zoneId: number): Promise<ZoneSettings> {
  const zone = await (await zonesOf(deps, principal)).get(zoneId);
  return readZoneSettings(zone.settings);
}

/**
 * The debian nginx of the edge nodes (1.22, `nginx -V`) is built without http_v3_module: turning HTTP/3 on is
 * refused rather than pretended.
 */
const HTTP3_REFUSED = 'HTTP/3 needs nginx built with http_v3_module; the edge nginx of the nodes has none';

async function store(deps: AppDeps, zones: Zones, zone: ReachedZone, settings: ZoneSettings, bump: boolean) {
  await zones.storeSettings(zone, settings);
  if (bump) await deps.revisions.bump(deps.db, [zone.id]);
  return settings;
}

type Editable = Exclude<keyof ZoneSettings, 'preheatCaches'>;

/** Every node of the zone listens on its web ports and its sites' layer-4 ports alike: a port is one or the other (101025 names the clash). */
async function assertNoLayer4Clash(zones: Zones, zone: ReachedZone, { httpPorts, httpsPorts }: ZoneSettings['ports']) {
  const clash = await zones.layer4PortsAmong(zone, [...httpPorts, ...httpsPorts]);
  if (clash.length) throw new ApiError(Codes.Duplicated, { extra: { ports: [...new Set(clash)].sort((a, b) => a - b) } });
}

/** Changes one part of a zone's settings and gives the zone's nodes a new revision to apply. Owner only. */
export async function setZoneSetting<K extends Editable>(deps: AppDeps, principal: Principal, zoneId: number, key: K, value: ZoneSettings[K]) {
  const zones = await zonesOf(deps, principal);
  const zone = await zones.owned(zoneId);
  if (key === 'http3' && (value as ZoneSettings['http3']).enabled) throw new ApiError(Codes.Parameter, { extra: HTTP3_REFUSED });
  if (key === 'ports') await assertNoLayer4Clash(zones, zone, value as ZoneSettings['ports']);
  return store(deps, zones, zone, { ...readZoneSettings(zone.settings), [key]: value }, true);
}

/** Opens or closes one port: the zone's whole port list, changed by one, goes through the same rules as `ports`. */
export async function changeZonePort(deps: AppDeps, principal: Principal, zoneId: number, { type, port }: { type: 'http' | 'https'; port: number }, open: boolean) {
  const zone = await (await zonesOf(deps, principal)).owned(zoneId);
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
  const zones = await zonesOf(deps, principal);
  const zone = await zones.owned(zoneId);
  const settings = readZoneSettings(zone.settings);
  return store(deps, zones, zone, { ...settings, ipset: { sets: settings.ipset.sets.map((s) => ({ name: s.name, ips: [] })) } }, true);
}

/** Warms the cache of every enrolled node of the zone: each fetches the URLs through its own nginx. */
export async function preheatCaches(deps: AppDeps, principal: Principal, zoneId: number, body: z.infer<typeof infraSchemas.preheatCachesBody>) {
  const zones = await zonesOf(deps, principal);
  const zone = await zones.owned(zoneId);
  const { nodes } = await queueForZone(deps, principal, zoneId, 'warmCache', { urls: body.urls });
  const preheat = { urls: body.urls, commandIDs: nodes.map((n) => n.id), createdAt: now() };
  return store(deps, zones, zone, { ...readZoneSettings(zone.settings), preheatCaches: preheat }, false);
}

/** The zone's last warm-up and how each node did. */
export async function preheatResult(deps: AppDeps, principal: Principal, zoneId: number) {
  const { preheatCaches: last } = await zoneSettings(deps, principal, zoneId);
  const nodes = last.commandIDs.length ? await commandsWithNodes(deps.db, last.commandIDs) : [];
  return { urls: last.urls, createdAt: last.createdAt, nodes };
}
