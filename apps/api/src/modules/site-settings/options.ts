import { Codes, edge } from '@edgekeep/contract';
import type { Db } from '../../db';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { zonePortsOf } from '../zones/repo';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { readJson } from '../../db/json-column';

/** What site_options.options holds: the site's options but its rate rules (rows of site_rate_rules). */
export type StoredOptions = Omit<edge.SiteOptions, 'rateRules'>;

/** The stored options, each option the site never set at its default. */
const storedOptions = edge.siteOptions.omit({ rateRules: true });
const parseOptions = (json: string | undefined): StoredOptions => (json ? readJson('site_options.options', storedOptions, json) : storedOptions.parse({}));

export async function loadOptions(db: Db, siteId: number): Promise<StoredOptions> {
  const row = await db.selectFrom('site_options').select('options').where('site_id', '=', siteId).executeTakeFirst();
  return parseOptions(row?.options);
}

/** Each site's options for its node state, rate rules included. */
export async function optionsOfSites(db: Db, siteIds: number[]) {
  if (!siteIds.length) return new Map<number, edge.SiteOptions>();
  const rows = await db.selectFrom('site_options').select(['site_id', 'options']).where('site_id', 'in', siteIds).execute();
  const rates = await db.selectFrom('site_rate_rules').select(['site_id', 'url', 'rate']).where('site_id', 'in', siteIds).orderBy('id').execute();
  return new Map(
    siteIds.map((id) => [
      id,
      {
        ...parseOptions(rows.find((r) => r.site_id === id)?.options),
        rateRules: rates.filter((r) => r.site_id === id).map(({ url, rate }) => ({ url, rate })),
      },
    ]),
  );
}

/** Changes some of a site's options and gives its zone's nodes a new revision. */
export async function changeOptions(deps: AppDeps, principal: Principal, siteId: number, change: Partial<StoredOptions>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const options = { ...(await loadOptions(deps.db, siteId)), ...change };
  const at = now();
  await deps.db
    .insertInto('site_options')
    .values({ site_id: siteId, options: JSON.stringify(options), updated_at: at })
    .onConflict((oc) => oc.column('site_id').doUpdateSet({ options: JSON.stringify(options), updated_at: at }))
    .execute();
  await sitesChanged(deps, [site]);
  return site;
}

/** The zone's ports, each marked with whether the site listens on it (all of them until the site chooses). */
export async function sitePortView(db: Db, siteId: number, zoneId: number) {
  const zone = await zonePortsOf(db, zoneId);
  const options = await loadOptions(db, siteId);
  const mark = (all: number[], chosen: number[] | null) => {
    const kept = chosen ? all.filter((p) => chosen.includes(p)) : all;
    const on = kept.length ? kept : all;
    return all.map((port) => ({ port, enabled: on.includes(port) }));
  };
  return { httpPorts: mark(zone.httpPorts, options.httpPorts), httpsPorts: mark(zone.httpsPorts, options.httpsPorts) };
}

export async function zonePorts(deps: AppDeps, principal: Principal, siteId: number) {
  const site = await sitesRepo(deps, principal).get(siteId);
  return sitePortView(deps.db, siteId, site.zoneID);
}

const portError = (message: string) => new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'ports', message }] } });

/** Turns some of the zone's ports on (add) or off for the site; HTTP and HTTPS keep at least one port each. */
export async function setPorts(deps: AppDeps, principal: Principal, siteId: number, body: { type: 'http' | 'https'; ports: number[]; add: boolean }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const view = await sitePortView(deps.db, siteId, site.zoneID);
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
  await changeOptions(deps, principal, siteId, body.type === 'http' ? { httpPorts: chosen } : { httpsPorts: chosen });
  return sitePortView(deps.db, siteId, site.zoneID);
}
