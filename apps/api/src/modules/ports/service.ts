import { Codes, type l4PortSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { assertCanCreate } from '../licenses/limits';
import { sitesRepo, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { readZoneSettings } from '../zones/defaults';
import { l4UpstreamRow, toL4Upstream, toPortItems, type L4UpstreamInput } from './rows';

type S = typeof l4PortSchemas;
type Site = ReachedSite;

export async function listPorts(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<S['portsQuery']>) {
  await sitesRepo(deps, principal).get(siteId);
  const q = deps.db.selectFrom('l4_ports').selectAll().where('site_id', '=', siteId);
  const page = await paginate(q, { page: query, sortable: { port: 'port', createdAt: 'created_at', updatedAt: 'updated_at' }, defaultSort: { column: 'port', order: 'asc' } });
  return { data: await toPortItems(deps.db, page.data), total: page.total };
}

async function portOf(deps: AppDeps, siteId: number, portId: number) {
  const p = await deps.db.selectFrom('l4_ports').selectAll().where('id', '=', portId).where('site_id', '=', siteId).executeTakeFirst();
  if (!p) throw notFound('port');
  return p;
}

/**
 * A port is free in the site's zone when no other layer-4 port of the zone and none of the zone's web ports
 * uses it (every node of the zone listens on all of them); a taken one answers 101025 naming the ports.
 */
async function assertPortsFree(deps: AppDeps, site: Site, ports: number[], exceptId?: number) {
  const zone = await deps.db.selectFrom('zones').select('settings').where('id', '=', site.zoneID).executeTakeFirstOrThrow();
  const web = readZoneSettings(zone.settings).ports;
  let q = deps.db
    .selectFrom('l4_ports')
    .innerJoin('sites', 'sites.id', 'l4_ports.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select('l4_ports.port')
    .where('products.zone_id', '=', site.zoneID)
    .where('l4_ports.port', 'in', ports);
  if (exceptId) q = q.where('l4_ports.id', '!=', exceptId);
  const taken = new Set([...(await q.execute()).map((r) => r.port), ...[...web.httpPorts, ...web.httpsPorts].filter((p) => ports.includes(p))]);
  if (taken.size) throw new ApiError(Codes.Duplicated, { extra: { ports: [...taken].sort((a, b) => a - b) } });
}

/** A site with layer-7 domains takes no layer-4 ports (205005); its port type never changes once set. */
async function assertLayer4(deps: AppDeps, siteId: number) {
  const row = await deps.db.selectFrom('domains').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', siteId).executeTakeFirst();
  if (toCount(row?.n as number) > 0) throw new ApiError(Codes.SiteHasL7Domains);
}

async function insertPorts(deps: AppDeps, site: Site, entries: { port: number; upstreams: L4UpstreamInput[] }[]) {
  await assertLayer4(deps, site.id);
  await assertPortsFree(deps, site, entries.map((e) => e.port));
  const product = await deps.db.selectFrom('products').select('client_id').where('id', '=', site.productID).executeTakeFirstOrThrow();
  await assertCanCreate(deps, { clientId: product.client_id, kind: 'port', adding: entries.length });
  if (entries.some((e) => !e.upstreams.some((u) => u.enabled && !u.backup))) throw new ApiError(Codes.OriginRequired);
  const at = now();
  const ids = await deps.db.transaction().execute(async (trx) => {
    const made: number[] = [];
    for (const e of entries) {
      const p = await trx.insertInto('l4_ports').values({ site_id: site.id, port: e.port, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
      await trx.insertInto('l4_upstreams').values(e.upstreams.map((u) => l4UpstreamRow(p.id, u, at))).execute();
      made.push(p.id);
    }
    return made;
  });
  await sitesChanged(deps, [site]);
  return toPortItems(deps.db, await deps.db.selectFrom('l4_ports').selectAll().where('id', 'in', ids).orderBy('port').execute());
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
  const p = await portOf(deps, siteId, body.id);
  await assertPortsFree(deps, site, [body.port], p.id);
  await deps.db.updateTable('l4_ports').set({ port: body.port, updated_at: now() }).where('id', '=', p.id).execute();
  await sitesChanged(deps, [site]);
  return (await toPortItems(deps.db, [await portOf(deps, siteId, p.id)]))[0];
}

export async function removePorts(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  for (const id of ids) await portOf(deps, siteId, id);
  await deps.db.deleteFrom('l4_ports').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

export async function listUpstreams(deps: AppDeps, principal: Principal, siteId: number, portId: number, query: z.infer<S['upstreamsQuery']>) {
  await sitesRepo(deps, principal).get(siteId);
  await portOf(deps, siteId, portId);
  let q = deps.db.selectFrom('l4_upstreams').selectAll().where('port_id', '=', portId);
  if (query.keyword) q = q.where('host', 'like', `%${query.keyword.toLowerCase()}%`);
  const page = await paginate(q, {
    page: query,
    sortable: { host: 'host', port: 'port', weight: 'weight', createdAt: 'created_at' },
    defaultSort: { column: 'id', order: 'asc' },
  });
  return { data: page.data.map(toL4Upstream), total: page.total };
}

export async function addUpstreams(deps: AppDeps, principal: Principal, siteId: number, portId: number, upstreams: L4UpstreamInput[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await portOf(deps, siteId, portId);
  const rows = await deps.db.insertInto('l4_upstreams').values(upstreams.map((u) => l4UpstreamRow(portId, u, now()))).returningAll().execute();
  await sitesChanged(deps, [site]);
  return rows.map(toL4Upstream);
}

/** A port keeps at least one enabled origin that is not a backup (401008); runs inside the change's transaction. */
async function assertOriginLeft(db: Db, portId: number) {
  const left = await db
    .selectFrom('l4_upstreams')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('port_id', '=', portId)
    .where('enabled', '=', 1)
    .where('backup', '=', 0)
    .executeTakeFirst();
  if (toCount(left?.n as number) === 0) throw new ApiError(Codes.OriginRequired);
}

export async function updateUpstream(deps: AppDeps, principal: Principal, siteId: number, portId: number, body: z.infer<S['updateUpstreamBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await portOf(deps, siteId, portId);
  const current = await deps.db.selectFrom('l4_upstreams').selectAll().where('id', '=', body.id).where('port_id', '=', portId).executeTakeFirst();
  if (!current) throw notFound('origin');
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const { port_id: _port, created_at: _at, ...values } = l4UpstreamRow(portId, { ...toL4Upstream(current), ...given } as L4UpstreamInput, current.created_at);
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('l4_upstreams').set(values).where('id', '=', body.id).execute();
    await assertOriginLeft(trx, portId);
  });
  await sitesChanged(deps, [site]);
  return toL4Upstream(await deps.db.selectFrom('l4_upstreams').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow());
}

export async function removeUpstreams(deps: AppDeps, principal: Principal, siteId: number, portId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await portOf(deps, siteId, portId);
  await deps.db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('l4_upstreams').where('port_id', '=', portId).where('id', 'in', ids).executeTakeFirst();
    if (Number(removed.numDeletedRows) !== new Set(ids).size) throw notFound('origin');
    await assertOriginLeft(trx, portId);
  });
  await sitesChanged(deps, [site]);
}
