import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { zonePortsOf } from '../zones/repo';
import { sitesRepo, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { siteSettingsRepo, type StoredOptions } from './repo';

/** Changes some of a site's options and gives its zone's nodes a new revision. */
export async function changeOptions(deps: AppDeps, site: ReachedSite, change: Partial<StoredOptions>) {
  const repo = siteSettingsRepo(deps.db, site);
  await repo.saveOptions({ ...(await repo.options()), ...change });
  await sitesChanged(deps, [site]);
}

/** The zone's ports, each marked with whether the site listens on it (all of them until the site chooses). */
export async function sitePortView(deps: AppDeps, site: ReachedSite) {
  const zone = await zonePortsOf(deps.db, site.zoneID);
  const options = await siteSettingsRepo(deps.db, site).options();
  const mark = (all: number[], chosen: number[] | null) => {
    const kept = chosen ? all.filter((p) => chosen.includes(p)) : all;
    const on = kept.length ? kept : all;
    return all.map((port) => ({ port, enabled: on.includes(port) }));
  };
  return { httpPorts: mark(zone.httpPorts, options.httpPorts), httpsPorts: mark(zone.httpsPorts, options.httpsPorts) };
}

export async function zonePorts(deps: AppDeps, principal: Principal, siteId: number) {
  return sitePortView(deps, await sitesRepo(deps, principal).get(siteId));
}

const portError = (message: string) => new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'ports', message }] } });

/** Turns some of the zone's ports on (add) or off for the site; HTTP and HTTPS keep at least one port each. */
export async function setPorts(deps: AppDeps, principal: Principal, siteId: number, body: { type: 'http' | 'https'; ports: number[]; add: boolean }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const view = await sitePortView(deps, site);
  const list = body.type === 'http' ? view.httpPorts : view.httpsPorts;
  const closed = body.ports.filter((p) => !list.some((z) => z.port === p));
  if (closed.length) throw portError(`Port not allowed: ${closed.join(', ')} is not open in the zone`);
  const on = new Set(list.filter((p) => p.enabled).map((p) => p.port));
  for (const p of body.ports) {
    if (body.add) on.add(p);
    else on.delete(p);
  }
  if (!on.size) throw portError('HTTP and HTTPS need at least one port each');
  const chosen = list.map((p) => p.port).filter((p) => on.has(p));
  await changeOptions(deps, site, body.type === 'http' ? { httpPorts: chosen } : { httpsPorts: chosen });
  return sitePortView(deps, site);
}
