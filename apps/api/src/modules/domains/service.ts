import { Codes, domainSchemas, messageOf } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { DomainTable, UpstreamTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { assertCanCreate } from '../licenses/limits';
import { reachableSite } from '../sites/service';

type UpstreamInput = z.infer<typeof domainSchemas.upstreamInput>;

const toUpstream = (u: Selectable<UpstreamTable>) => ({
  id: u.id,
  host: u.host,
  port: u.port,
  weight: u.weight,
  backup: u.backup === 1,
  maxFails: u.max_fails,
  failTimeout: u.fail_timeout,
  enabled: u.enabled === 1,
});
const upstreamRow = (domainId: number, u: UpstreamInput) => ({
  domain_id: domainId,
  host: u.host,
  port: u.port,
  weight: u.weight,
  backup: u.backup ? 1 : 0,
  max_fails: u.maxFails,
  fail_timeout: u.failTimeout,
  enabled: u.enabled ? 1 : 0,
} as const);

async function toItems(deps: AppDeps, rows: Selectable<DomainTable>[]) {
  const ups = rows.length ? await deps.db.selectFrom('upstreams').selectAll().where('domain_id', 'in', rows.map((r) => r.id)).orderBy('id').execute() : [];
  return rows.map((d) => ({
    id: d.id,
    siteID: d.site_id,
    name: d.name,
    status: d.status,
    protocol: d.protocol,
    forceSSL: d.force_ssl === 1,
    hsts: d.hsts === 1,
    tags: JSON.parse(d.tags) as string[],
    upstreams: ups.filter((u) => u.domain_id === d.id).map(toUpstream),
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  }));
}

export async function listDomains(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<typeof domainSchemas.domainsQuery>) {
  await reachableSite(deps, principal, siteId);
  let q = deps.db.selectFrom('domains').selectAll().where('site_id', '=', siteId);
  if (query.keywords) q = q.where('name', 'like', `%${query.keywords.toLowerCase()}%`);
  const page = await paginate(q, { page: query, sortable: { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' }, defaultSort: { column: 'created_at', order: 'desc' } });
  return { data: await toItems(deps, page.data), total: page.total };
}

/** An enabled domain is served by one site only, across every tenant (401001). */
async function enabledElsewhere(deps: AppDeps, names: string[], exceptId?: number) {
  if (!names.length) return new Set<string>();
  let q = deps.db.selectFrom('domains').select('name').where('name', 'in', names).where('status', '=', 1);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return new Set((await q.execute()).map((r) => r.name));
}

/** Adds domains, all or none: each refusal (format, duplicate) is listed in one 101009 with its domain as target. */
export async function createDomains(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<typeof domainSchemas.createDomainsBody>) {
  const site = await reachableSite(deps, principal, siteId);
  const errors: { code: number; message: string; targets: string[] }[] = [];
  const names: string[] = [];
  for (const raw of body.domains) {
    const parsed = domainSchemas.domainName.safeParse(raw);
    if (!parsed.success) errors.push({ code: Codes.Parameter, message: 'Wrong Fromat!', targets: [raw] });
    else if (names.includes(parsed.data)) errors.push({ code: Codes.Duplicated, message: messageOf(Codes.Duplicated, 'en_US')!, targets: [raw] });
    else names.push(parsed.data);
  }
  for (const name of await enabledElsewhere(deps, names)) {
    errors.push({ code: Codes.DuplicateDomain, message: messageOf(Codes.DuplicateDomain, 'en_US')!, targets: [name] });
  }
  if (errors.length) throw new ApiError(Codes.MultipleErrors, { errors, extra: { count: errors.length } });
  const product = await deps.db.selectFrom('products').select(['limits', 'client_id']).where('id', '=', site.productID).executeTakeFirstOrThrow();
  const limit = site.limitations.domainLimit ?? (JSON.parse(product.limits) as { domainLimit: number }).domainLimit;
  if (limit > 0 && site.domainCount + names.length > limit) throw new ApiError(Codes.DomainCountExceeded, { extra: { limit } });
  await assertCanCreate(deps, { clientId: product.client_id, kind: 'domain', adding: names.length });

  const at = now();
  const ids = await deps.db.transaction().execute(async (trx) => {
    const made: number[] = [];
    for (const name of names) {
      const d = await trx
        .insertInto('domains')
        .values({ site_id: siteId, name, status: 1, protocol: body.protocol, force_ssl: 0, hsts: 0, tags: '[]', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('upstreams').values(body.upstreams.map((u) => upstreamRow(d.id, u))).execute();
      made.push(d.id);
    }
    return made;
  });
  await deps.revisions.bump(deps.db, [site.zoneID]);
  return toItems(deps, await deps.db.selectFrom('domains').selectAll().where('id', 'in', ids).orderBy('id').execute());
}

async function domainOf(deps: AppDeps, siteId: number, domainId: number) {
  const d = await deps.db.selectFrom('domains').selectAll().where('id', '=', domainId).where('site_id', '=', siteId).executeTakeFirst();
  if (!d) throw notFound('domain');
  return d;
}

export async function updateDomain(deps: AppDeps, principal: Principal, siteId: number, body: z.infer<typeof domainSchemas.updateDomainBody>) {
  const site = await reachableSite(deps, principal, siteId);
  const d = await domainOf(deps, siteId, body.id);
  if (body.status === 1 && d.status !== 1 && (await enabledElsewhere(deps, [d.name], d.id)).size) throw new ApiError(Codes.DuplicateDomain);
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
  await deps.revisions.bump(deps.db, [site.zoneID]);
  return (await toItems(deps, [await domainOf(deps, siteId, d.id)]))[0];
}

export async function removeDomains(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await reachableSite(deps, principal, siteId);
  for (const id of ids) await domainOf(deps, siteId, id);
  await deps.db.deleteFrom('domains').where('id', 'in', ids).execute();
  await deps.revisions.bump(deps.db, [site.zoneID]);
}

export async function listUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number) {
  await reachableSite(deps, principal, siteId);
  await domainOf(deps, siteId, domainId);
  const rows = await deps.db.selectFrom('upstreams').selectAll().where('domain_id', '=', domainId).orderBy('id').execute();
  return { data: rows.map(toUpstream), total: rows.length };
}

export async function addUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, upstreams: UpstreamInput[]) {
  const site = await reachableSite(deps, principal, siteId);
  await domainOf(deps, siteId, domainId);
  const rows = await deps.db.insertInto('upstreams').values(upstreams.map((u) => upstreamRow(domainId, u))).returningAll().execute();
  await deps.revisions.bump(deps.db, [site.zoneID]);
  return rows.map(toUpstream);
}

/** A domain keeps at least one enabled origin (401008); run inside the change's transaction so a refusal undoes it. */
async function assertOriginLeft(db: Db, domainId: number) {
  const left = await db.selectFrom('upstreams').select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', domainId).where('enabled', '=', 1).executeTakeFirst();
  if (toCount(left?.n as number) === 0) throw new ApiError(Codes.OriginRequired);
}

export async function updateUpstream(deps: AppDeps, principal: Principal, siteId: number, domainId: number, body: z.infer<typeof domainSchemas.updateUpstreamBody>) {
  const site = await reachableSite(deps, principal, siteId);
  await domainOf(deps, siteId, domainId);
  const current = await deps.db.selectFrom('upstreams').selectAll().where('id', '=', body.id).where('domain_id', '=', domainId).executeTakeFirst();
  if (!current) throw notFound('origin');
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const { domain_id: _domain, ...values } = upstreamRow(domainId, { ...toUpstream(current), ...given } as UpstreamInput);
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('upstreams').set(values).where('id', '=', body.id).execute();
    await assertOriginLeft(trx, domainId);
  });
  await deps.revisions.bump(deps.db, [site.zoneID]);
  return toUpstream(await deps.db.selectFrom('upstreams').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow());
}

export async function removeUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, ids: number[]) {
  const site = await reachableSite(deps, principal, siteId);
  await domainOf(deps, siteId, domainId);
  await deps.db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('upstreams').where('domain_id', '=', domainId).where('id', 'in', ids).executeTakeFirst();
    if (Number(removed.numDeletedRows) !== new Set(ids).size) throw notFound('origin');
    await assertOriginLeft(trx, domainId);
  });
  await deps.revisions.bump(deps.db, [site.zoneID]);
}
