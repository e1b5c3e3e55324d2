import { Codes, type l4PortSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { assertCanCreate } from '../licenses/limits';
import { sitesRepo, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { zonePortsOf } from '../zones/repo';
import { portsRepo, type PortRow } from './repo';
import { l4UpstreamRow, toL4Upstream, type L4UpstreamInput } from './rows';

type S = typeof l4PortSchemas;
type Upstreams = ReturnType<ReturnType<typeof portsRepo>['upstreams']>;

export async function listPorts(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<S['portsQuery']>) {
  return portsRepo(deps.db, await sitesRepo(deps, principal).get(siteId)).page(query);
}

/**
 * A port is free in the site's zone when no other layer-4 port of the zone and none of the zone's web ports
 * uses it (every node of the zone listens on all of them); a taken one answers 101025 naming the ports.
 */
async function assertPortsFree(deps: AppDeps, site: ReachedSite, ports: number[], exceptId?: number) {
  const repo = portsRepo(deps.db, site);
  const web = await zonePortsOf(deps.db, site.zoneID);
  const taken = new Set([...(await repo.takenInZone(ports, exceptId)), ...[...web.httpPorts, ...web.httpsPorts].filter((p) => ports.includes(p))]);
  if (taken.size) throw new ApiError(Codes.Duplicated, { extra: { ports: [...taken].sort((a, b) => a - b) } });
}

/** A site with layer-7 domains takes no layer-4 ports (205005); its port type never changes once set. */
async function insertPorts(deps: AppDeps, site: ReachedSite, entries: { port: number; upstreams: L4UpstreamInput[] }[]) {
  const repo = portsRepo(deps.db, site);
  if ((await repo.domainCount()) > 0) throw new ApiError(Codes.SiteHasL7Domains);
  await assertPortsFree(deps, site, entries.map((e) => e.port));
  await assertCanCreate(deps, { clientId: site.productClientID, kind: 'port', adding: entries.length });
  if (entries.some((e) => !e.upstreams.some((u) => u.enabled && !u.backup))) throw new ApiError(Codes.OriginRequired);
  const made = await repo.insert(entries);
  await sitesChanged(deps, [site]);
  return made;
}

export async function createPorts(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['createPortsBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  return insertPorts(deps, site, body.ports);
}

export async function batchCreate(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['batchCreateBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  return insertPorts(deps, site, body.ports.map((port) => ({ port, upstreams: body.upstreams })));
}

export async function updatePort(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['updatePortBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const repo = portsRepo(deps.db, site);
  const p = await repo.get(body.id);
  await assertPortsFree(deps, site, [body.port], p.id);
  await repo.setPort(p.id, body.port);
  await sitesChanged(deps, [site]);
  return repo.item(p.id);
}

export async function removePorts(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const repo = portsRepo(deps.db, site);
  for (const id of ids) await repo.get(id);
  await repo.remove(ids);
  await sitesChanged(deps, [site]);
}

export async function listUpstreams(deps: AppDeps, principal: Principal, siteId: number, portId: number, query: z.infer<S['upstreamsQuery']>) {
  const repo = portsRepo(deps.db, await sitesRepo(deps, principal).get(siteId));
  return repo.upstreams(await repo.get(portId)).page(query);
}

export async function addUpstreams(deps: AppDeps, principal: Principal, siteId: number, portId: number, upstreams: L4UpstreamInput[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const repo = portsRepo(deps.db, site);
  const added = await repo.upstreams(await repo.get(portId)).add(upstreams);
  await sitesChanged(deps, [site]);
  return added;
}

/** A port keeps at least one enabled origin that is not a backup (401008); checked inside the change's transaction. */
async function keepingAnOrigin(deps: AppDeps, site: ReachedSite, port: PortRow, change: (ups: Upstreams) => Promise<unknown>) {
  await deps.db.transaction().execute(async (trx) => {
    const ups = portsRepo(trx, site).upstreams(port);
    await change(ups);
    if ((await ups.primaryLeft()) === 0) throw new ApiError(Codes.OriginRequired);
  });
}

export async function updateUpstream(deps: AppDeps, principal: Principal, siteId: number, portId: number, body: z.infer<S['updateUpstreamBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const repo = portsRepo(deps.db, site);
  const port = await repo.get(portId);
  const ups = repo.upstreams(port);
  const current = await ups.get(body.id);
  if (!current) throw notFound('origin');
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const { port_id: _port, created_at: _at, ...values } = l4UpstreamRow(portId, { ...toL4Upstream(current), ...given } as L4UpstreamInput, current.created_at);
  await keepingAnOrigin(deps, site, port, (inTrx) => inTrx.update(body.id, values));
  await sitesChanged(deps, [site]);
  return toL4Upstream((await ups.get(body.id))!);
}

export async function removeUpstreams(deps: AppDeps, principal: Principal, siteId: number, portId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const repo = portsRepo(deps.db, site);
  await keepingAnOrigin(deps, site, await repo.get(portId), async (inTrx) => {
    if ((await inTrx.remove(ids)) !== new Set(ids).size) throw notFound('origin');
  });
  await sitesChanged(deps, [site]);
}
