import { Codes, type domainSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { Updateable } from 'kysely';
import type { DomainTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { assertCanCreate } from '../licenses/limits';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { readZoneSettings } from '../zones/defaults';
import { domainOf, domainsOf, portMapOf, toSettings, type PortMap } from './rows';
import { checkNames, takeOver } from './ownership';
import { ACME_JOB } from '../acme/service';
import { readJson, stringList } from '../../db/json-column';

type S = typeof domainSettingSchemas;
type Changes = Pick<Updateable<DomainTable>, 'status' | 'force_ssl' | 'balance' | 'port_map' | 'protocol' | 'auto_ssl'>;

/** Applies one change to the chosen domains of a site and hands the zone's nodes a new revision. */
async function setOn(deps: AppDeps, site: { id: number; zoneID: number }, ids: number[], changes: Changes) {
  await deps.db.updateTable('domains').set({ ...changes, updated_at: now() }).where('site_id', '=', site.id).where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

export async function siteDomainTags(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  const rows = await deps.db.selectFrom('domains').select('tags').where('site_id', '=', siteId).execute();
  return [...new Set(rows.flatMap((r) => readJson('domains.tags', stringList, r.tags)))].sort();
}

export async function setDomainTags(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['domainTagsBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainsOf(deps, siteId, body.ids);
  await deps.db
    .updateTable('domains')
    .set({ tags: JSON.stringify([...new Set(body.tags)].sort()), updated_at: now() })
    .where('site_id', '=', site.id)
    .where('id', 'in', body.ids)
    .execute();
}

export async function setDomainStatus(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['domainStatusBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const rows = await domainsOf(deps, siteId, body.ids);
  if (body.status === 1) {
    const names = rows.map((r) => r.name);
    const twins = names.filter((n, i) => names.indexOf(n) !== i);
    const owned = await checkNames(deps, { ownerId: site.userID, names, exceptIds: rows.map((r) => r.id) });
    const refused = [...new Set([...twins, ...owned.refused])];
    if (refused.length) throw new ApiError(Codes.DuplicateDomain, { extra: { domains: refused, ...(owned.challenges.length ? { challenges: owned.challenges } : {}) } });
    await takeOver(deps, { ownerId: site.userID, domains: owned.proven });
  }
  await setOn(deps, site, body.ids, { status: body.status });
}

/** The flag only: issuing the certificates is the auto-SSL service's work. Counted against the license (401004). */
export async function setAutoSSL(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['autoSSLBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const rows = await domainsOf(deps, siteId, body.ids);
  const turningOn = rows.filter((r) => r.auto_ssl !== 1).length;
  if (body.autoSSL && turningOn) {
    const product = await deps.db.selectFrom('products').select('client_id').where('id', '=', site.productID).executeTakeFirstOrThrow();
    await assertCanCreate(deps, { clientId: product.client_id, kind: 'autoSSL', adding: turningOn });
  }
  await setOn(deps, site, body.ids, { auto_ssl: body.autoSSL ? 1 : 0 });
  // The automatic-certificate queue takes the newly switched-on domains at once rather than at its next period.
  if (body.autoSSL && turningOn) void deps.scheduler.runNow(ACME_JOB).catch(() => undefined);
}

export async function setBalance(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['balanceBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainsOf(deps, siteId, body.ids);
  await setOn(deps, site, body.ids, { balance: body.balance });
}

export async function setForceSSL(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['forceSSLBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainsOf(deps, siteId, body.ids);
  await setOn(deps, site, body.ids, { force_ssl: body.forceSSL ? 1 : 0 });
}

export async function domainSettings(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<S['settingsQuery']>) {
  await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('domains').selectAll().where('site_id', '=', siteId);
  if (query.domainName) q = q.where('name', 'like', `%${query.domainName.toLowerCase()}%`);
  const page = await paginate(q, { page: query, sortable: { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' }, defaultSort: { column: 'name', order: 'asc' } });
  return { data: await toSettings(deps, page.data), total: page.total };
}

/** The zone's open web ports: what a port mapping may map from. */
async function zonePorts(deps: AppDeps, zoneId: number) {
  const zone = await deps.db.selectFrom('zones').select('settings').where('id', '=', zoneId).executeTakeFirstOrThrow();
  const { ports } = readZoneSettings(zone.settings);
  return new Set([...ports.httpPorts, ...ports.httpsPorts]);
}

/**
 * Origin protocol and port mapping. follow needs mapping on, and mapping cannot go off while follow is used
 * (401003); a rule for an edge port the zone does not open is refused with 401003 naming the port.
 */
export async function setScheme(deps: AppDeps, principal: Principal, siteId: number, domainId: number, body: z.infer<S['schemeBody']>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const d = await domainOf(deps, siteId, domainId);
  const portMap: PortMap = body.portMap ?? portMapOf(d);
  if (body.scheme === 'follow' && !portMap.enabled) {
    throw new ApiError(Codes.IllegalPortMapping, { extra: 'the follow protocol needs port mapping on' });
  }
  const open = await zonePorts(deps, site.zoneID);
  const closed = portMap.rules.find((r) => !open.has(r.listen));
  if (closed) throw new ApiError(Codes.IllegalPortMapping, { extra: `site has no port ${closed.listen} open` });
  await setOn(deps, site, [d.id], { protocol: body.scheme, port_map: JSON.stringify(portMap) });
  return (await toSettings(deps, [await domainOf(deps, siteId, d.id)]))[0];
}
