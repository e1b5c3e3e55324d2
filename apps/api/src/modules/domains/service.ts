import { Codes, domainSchemas, ITEM_LIST_MAX, messageOf, type ErrorCode } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, toCount, type Db } from '../../db';
import { keptPage } from '../../db/kept-order';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { assertCanCreate } from '../licenses/limits';
import { sitesRepo, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { checkNames, takeOver, type NameCheck } from './ownership';
import { domainOf, toItems, toUpstream, upstreamRow, type UpstreamInput } from './rows';
import { readTerms } from '../products/terms';

type Site = ReachedSite;

/**
 * A page of a site's domains. Unless it is filtered by the certificates' validity (which changes with the time), the
 * ids of the whole list in its order are kept until a domain of the site changes (the site's version, raised by the
 * database) and the page's rows are read by id.
 */
export async function listDomains(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<typeof domainSchemas.domainsQuery>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('domains').where('site_id', '=', siteId);
  if (query.keywords) q = q.where('name', 'like', `%${query.keywords.toLowerCase()}%`);
  for (const tag of query.tags ?? []) q = q.where('tags', 'like', `%${JSON.stringify(tag)}%`);
  if (query.cnameStatuses?.length) q = q.where('cname_status', 'in', query.cnameStatuses);
  if (query.forceSSL !== undefined) q = q.where('force_ssl', '=', query.forceSSL ? 1 : 0);
  if (query.certStatus === 'none') q = q.where('certificate_id', 'is', null);
  if (query.createdStart) q = q.where('created_at', '>=', query.createdStart);
  if (query.createdEnd) q = q.where('created_at', '<=', query.createdEnd);
  if (query.updatedStart) q = q.where('updated_at', '>=', query.updatedStart);
  if (query.updatedEnd) q = q.where('updated_at', '<=', query.updatedEnd);
  const sorting = {
    sortable: { name: 'name', status: 'status', cnameStatus: 'cname_status', createdAt: 'created_at', updatedAt: 'updated_at' },
    defaultSort: { column: 'created_at', order: 'desc' as const },
  };
  if (query.certStatus === 'valid' || query.certStatus === 'expired') {
    const certs = deps.db.selectFrom('certificates').select('id').where('not_after', query.certStatus === 'valid' ? '>' : '<=', new Date().toISOString());
    const page = await paginate(q.selectAll().where('certificate_id', 'in', certs), { page: query, ...sorting });
    return { data: await toItems(deps, page.data), total: page.total };
  }
  const page = await keptPage(deps.db, q.select('id'), { page: query, ...sorting, version: `${site.id}:${site.domainsVersion}` });
  const rows = page.ids.length ? await deps.db.selectFrom('domains').selectAll().where('id', 'in', page.ids).execute() : [];
  const byId = new Map(rows.map((d) => [d.id, d]));
  return { data: await toItems(deps, page.ids.flatMap((id) => byId.get(id) ?? [])), total: page.total };
}

const refusal = (code: ErrorCode, target: string) => ({ code, message: messageOf(code, 'en_US')!, targets: [target] });

/** A site with layer-4 ports is a layer-4 site: it takes no domains (205004). */
export async function assertLayer7(deps: AppDeps, siteId: number) {
  const ports = await deps.db.selectFrom('l4_ports').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', siteId).executeTakeFirst();
  if (toCount(ports?.n as number) > 0) throw new ApiError(Codes.SiteHasL4Ports);
}

export type NewDomain = {
  name: string;
  status: 0 | 1;
  protocol: 'http' | 'https' | 'follow';
  upstreams: UpstreamInput[];
  tags?: string[];
  balance?: 'round_robin' | 'ip_hash' | 'least_conn';
  portMap?: string;
};

/**
 * Adds domains to a site, all or none: names already in the batch (101025), enabled anywhere or under a registered
 * domain another tenant uses (401001) are listed in one 101009; then the product's and the license's domain counts (401002) apply.
 */
export async function insertDomains(deps: AppDeps, site: Site, entries: NewDomain[], refusals: ReturnType<typeof refusal>[] = []) {
  await assertLayer7(deps, site.id);
  const errors = [...refusals];
  const names: string[] = [];
  for (const e of entries) {
    if (names.includes(e.name)) errors.push(refusal(Codes.Duplicated, e.name));
    else names.push(e.name);
  }
  const enabled = entries.filter((e) => e.status === 1).map((e) => e.name);
  const owned = await checkNames(deps, { ownerId: site.userID, names: enabled });
  for (const name of owned.refused) errors.push(refusal(Codes.DuplicateDomain, name));
  if (errors.length) throw new ApiError(Codes.MultipleErrors, { errors, extra: { count: errors.length, ...(owned.challenges.length ? { challenges: owned.challenges } : {}) } });
  const product = await deps.db.selectFrom('products').select(['limits', 'client_id']).where('id', '=', site.productID).executeTakeFirstOrThrow();
  const limit = site.limitations.domainLimit ?? readTerms(product.limits).domainLimit;
  if (limit > 0 && site.domainCount + entries.length > limit) throw new ApiError(Codes.DomainCountExceeded, { extra: { limit } });
  // What one site's part of the edge state can carry, whatever the licence allows.
  if (site.domainCount + entries.length > ITEM_LIST_MAX) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: ITEM_LIST_MAX } });
  await assertCanCreate(deps, { clientId: product.client_id, kind: 'domain', adding: entries.length });
  await takeOver(deps, { ownerId: site.userID, domains: owned.proven });

  const at = now();
  const ids = await deps.db.transaction().execute(async (trx) => {
    const made: number[] = [];
    for (const e of entries) {
      const d = await trx
        .insertInto('domains')
        .values({
          site_id: site.id,
          name: e.name,
          status: e.status,
          protocol: e.protocol,
          force_ssl: 0,
          hsts: 0,
          tags: JSON.stringify(e.tags ?? []),
          // follow reaches the origin on the port the client used: it comes with port mapping on
          ...(e.protocol === 'follow' ? { port_map: JSON.stringify({ enabled: true, rules: [] }) } : {}),
          ...(e.portMap ? { port_map: e.portMap } : {}),
          ...(e.balance ? { balance: e.balance } : {}),
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('upstreams').values(e.upstreams.map((u) => upstreamRow(d.id, u))).execute();
      made.push(d.id);
    }
    return made;
  });
  await sitesChanged(deps, [site]);
  return toItems(deps, await deps.db.selectFrom('domains').selectAll().where('id', 'in', ids).orderBy('id').execute());
}

/** Parses each line as a domain: a bad one becomes a 101003 refusal of the batch. */
export function parseNames(lines: string[]) {
  const refusals: ReturnType<typeof refusal>[] = [];
  const names: string[] = [];
  for (const raw of lines) {
    const parsed = domainSchemas.domainName.safeParse(raw);
    if (parsed.success) names.push(parsed.data);
    else refusals.push({ code: Codes.Parameter, message: 'Wrong Fromat!', targets: [raw] });
  }
  return { names, refusals };
}

export async function createDomains(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<typeof domainSchemas.createDomainsBody>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const { names, refusals } = parseNames(body.domains);
  return insertDomains(deps, site, names.map((name) => ({ name, status: 1, protocol: body.protocol, upstreams: body.upstreams })), refusals);
}

export async function updateDomain(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<typeof domainSchemas.updateDomainBody>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const d = await domainOf(deps, siteId, body.id);
  let owned: NameCheck | undefined;
  if (body.status === 1 && d.status !== 1) {
    owned = await checkNames(deps, { ownerId: site.userID, names: [d.name], exceptIds: [d.id] });
    if (owned.refused.length) throw new ApiError(Codes.DuplicateDomain, owned.challenges.length ? { extra: { challenges: owned.challenges } } : {});
  }
  if (body.protocol === 'follow' && !JSON.parse(d.port_map).enabled) throw new ApiError(Codes.IllegalPortMapping, { extra: 'the follow protocol needs port mapping on' });
  if (owned) await takeOver(deps, { ownerId: site.userID, domains: owned.proven });
  await deps.db
    .updateTable('domains')
    .set({
      ...(body.status === undefined ? {} : { status: body.status }),
      ...(body.protocol === undefined ? {} : { protocol: body.protocol }),
      ...(body.forceSSL === undefined ? {} : { force_ssl: body.forceSSL ? 1 : 0 }),
      ...(body.hsts === undefined ? {} : { hsts: body.hsts ? 1 : 0 }),
      updated_at: now(),
    })
    .where('id', '=', d.id)
    .execute();
  await sitesChanged(deps, [site]);
  return (await toItems(deps, [await domainOf(deps, siteId, d.id)]))[0];
}

export async function removeDomains(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  for (const id of ids) await domainOf(deps, siteId, id);
  await deps.db.deleteFrom('domains').where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

export async function listUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, query: z.infer<typeof domainSchemas.upstreamsQuery>) {
  await sitesRepo(deps, principal).get(siteId);
  await domainOf(deps, siteId, domainId);
  let q = deps.db.selectFrom('upstreams').selectAll().where('domain_id', '=', domainId);
  if (query.keyword) q = q.where('host', 'like', `%${query.keyword.toLowerCase()}%`);
  const page = await paginate(q, { page: query, sortable: { host: 'host', port: 'port', weight: 'weight' }, defaultSort: { column: 'id', order: 'asc' } });
  return { data: page.data.map(toUpstream), total: page.total };
}

export async function addUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, upstreams: UpstreamInput[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainOf(deps, siteId, domainId);
  const rows = await deps.db.insertInto('upstreams').values(upstreams.map((u) => upstreamRow(domainId, u))).returningAll().execute();
  await sitesChanged(deps, [site]);
  return rows.map(toUpstream);
}

/** A domain keeps at least one enabled origin (401008); run inside the change's transaction so a refusal undoes it. */
export async function assertOriginLeft(db: Db, domainId: number) {
  const left = await db.selectFrom('upstreams').select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', domainId).where('enabled', '=', 1).executeTakeFirst();
  if (toCount(left?.n as number) === 0) throw new ApiError(Codes.OriginRequired);
}

export async function updateUpstream(deps: AppDeps, principal: Principal, siteId: number, domainId: number, body: z.infer<typeof domainSchemas.updateUpstreamBody>) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainOf(deps, siteId, domainId);
  const current = await deps.db.selectFrom('upstreams').selectAll().where('id', '=', body.id).where('domain_id', '=', domainId).executeTakeFirst();
  if (!current) throw notFound('origin');
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const { domain_id: _domain, ...values } = upstreamRow(domainId, { ...toUpstream(current), ...given } as UpstreamInput);
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('upstreams').set(values).where('id', '=', body.id).execute();
    await assertOriginLeft(trx, domainId);
  });
  await sitesChanged(deps, [site]);
  return toUpstream(await deps.db.selectFrom('upstreams').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow());
}

export async function removeUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await domainOf(deps, siteId, domainId);
  await deps.db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('upstreams').where('domain_id', '=', domainId).where('id', 'in', ids).executeTakeFirst();
    if (Number(removed.numDeletedRows) !== new Set(ids).size) throw notFound('origin');
    await assertOriginLeft(trx, domainId);
  });
  await sitesChanged(deps, [site]);
}
