import { Codes, type domainSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { Updateable } from 'kysely';
import type { DomainTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { assertCanCreate } from '../licenses/limits';
import { reachSite, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { zonePortsOf } from '../zones/repo';
import { domainsRepo } from './repo';
import { portMapOf, type PortMap } from './rows';
import { checkNames, takeOver } from './ownership';
import { ACME_JOB } from '../acme/service';

type S = typeof domainSettingSchemas;
type Changes = Pick<Updateable<DomainTable>, 'status' | 'force_ssl' | 'balance' | 'port_map' | 'protocol' | 'auto_ssl'>;

/** Applies one change to the chosen domains of a site and hands the zone's nodes a new revision. */
async function setOn(deps: AppDeps, site: ReachedSite, ids: number[], changes: Changes) {
  await domainsRepo(deps.db, site).set(ids, changes);
  await sitesChanged(deps, [site]);
}

export async function siteDomainTags(deps: AppDeps, principal: Principal, siteId: number) {
  const { repo } = await reachSite(deps, principal, siteId, domainsRepo);
  return [...new Set((await repo.tags()).flat())].sort();
}

export async function setDomainTags(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['domainTagsBody']>) {
  const { repo } = await reachSite(deps, principal, siteId, domainsRepo);
  await repo.some(body.ids);
  await repo.set(body.ids, { tags: JSON.stringify([...new Set(body.tags)].sort()) });
}

export async function setDomainStatus(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['domainStatusBody']>) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const rows = await repo.some(body.ids);
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
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const rows = await repo.some(body.ids);
  const turningOn = rows.filter((r) => r.auto_ssl !== 1).length;
  if (body.autoSSL && turningOn) await assertCanCreate(deps, { clientId: site.productClientID, kind: 'autoSSL', adding: turningOn });
  await setOn(deps, site, body.ids, { auto_ssl: body.autoSSL ? 1 : 0 });
  // The automatic-certificate queue takes the newly switched-on domains at once rather than at its next period.
  if (body.autoSSL && turningOn) void deps.scheduler.runNow(ACME_JOB).catch(() => undefined);
}

export async function setBalance(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['balanceBody']>) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  await repo.some(body.ids);
  await setOn(deps, site, body.ids, { balance: body.balance });
}

export async function setForceSSL(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<S['forceSSLBody']>) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  await repo.some(body.ids);
  await setOn(deps, site, body.ids, { force_ssl: body.forceSSL ? 1 : 0 });
}

export async function domainSettings(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<S['settingsQuery']>) {
  const { repo } = await reachSite(deps, principal, siteId, domainsRepo);
  return repo.settingsPage(query);
}

/**
 * Origin protocol and port mapping. follow needs mapping on, and mapping cannot go off while follow is used
 * (401003); a rule for an edge port the zone does not open is refused with 401003 naming the port.
 */
export async function setScheme(deps: AppDeps, principal: Principal, siteId: number, domainId: number, body: z.infer<S['schemeBody']>) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const d = await repo.get(domainId);
  const portMap: PortMap = body.portMap ?? portMapOf(d);
  if (body.scheme === 'follow' && !portMap.enabled) {
    throw new ApiError(Codes.IllegalPortMapping, { extra: 'the follow protocol needs port mapping on' });
  }
  // The zone's open web ports: what a port mapping may map from.
  const ports = await zonePortsOf(deps.db, site.zoneID);
  const open = new Set([...ports.httpPorts, ...ports.httpsPorts]);
  const closed = portMap.rules.find((r) => !open.has(r.listen));
  if (closed) throw new ApiError(Codes.IllegalPortMapping, { extra: `site has no port ${closed.listen} open` });
  await setOn(deps, site, [d.id], { protocol: body.scheme, port_map: JSON.stringify(portMap) });
  return repo.settingsItem(d.id);
}
