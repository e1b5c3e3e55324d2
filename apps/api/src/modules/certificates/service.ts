import { Codes, siteSettingSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { CertificateTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { encrypt } from '../../lib/crypto';
import { checkClaims, takeOver } from '../domains/ownership';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { covers, parseCertificate } from './pem';
import { readJson, stringList } from '../../db/json-column';

function checkName(name: string) {
  const parsed = siteSettingSchemas.certificateName.safeParse(name);
  if (!parsed.success) throw new ApiError(Codes.InvalidCertificateName, { extra: { fields: [{ in: 'body', field: 'name', message: 'at most 64 characters' }] } });
  return parsed.data;
}

const statusOf = (c: Pick<CertificateTable, 'not_before' | 'not_after'>, at = now()) =>
  c.not_after < at ? ('expired' as const) : c.not_before > at ? ('notYetValid' as const) : ('valid' as const);

async function toItems(deps: AppDeps, rows: Selectable<CertificateTable>[]) {
  const bound = rows.length ? await deps.db.selectFrom('domains').select(['id', 'name', 'certificate_id']).where('certificate_id', 'in', rows.map((r) => r.id)).orderBy('name').execute() : [];
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    subject: c.subject,
    names: readJson('certificates.names', stringList, c.names),
    issuer: c.issuer,
    notBefore: c.not_before,
    notAfter: c.not_after,
    status: statusOf(c),
    domains: bound.filter((d) => d.certificate_id === c.id).map((d) => ({ id: d.id, name: d.name })),
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  }));
}

async function certOf(deps: AppDeps, siteId: number, id: number) {
  const row = await deps.db.selectFrom('certificates').selectAll().where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst();
  if (!row) throw notFound('certificate');
  return row;
}

/** The sites whose domains serve the certificate: each carries it in its part of the nodes' state. */
export const sitesServing = (deps: AppDeps, certificateId: number) =>
  deps.db
    .selectFrom('domains')
    .innerJoin('sites', 'sites.id', 'domains.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.id', 'products.zone_id as zoneID'])
    .distinct()
    .where('domains.certificate_id', '=', certificateId)
    .execute();

/** A certificate's names lie under registered domains the site's tenant holds or has proven (401001). */
async function claimNames(deps: AppDeps, ownerId: number, names: string[]) {
  const claims = await checkClaims(deps, { ownerId, names });
  if (claims.refused.length) throw new ApiError(Codes.DuplicateDomain, { extra: { domains: claims.refused, challenges: claims.challenges } });
  await takeOver(deps, { ownerId, domains: claims.proven });
}

export async function listCertificates(deps: AppDeps, principal: Principal, siteId: number, query: { page: number; pageSize: number; sortBy?: string; orderBy?: 'asc' | 'desc' | 'ascend' | 'descend'; name?: string }) {
  await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('certificates').selectAll().where('site_id', '=', siteId);
  if (query.name) q = q.where('name', 'like', `%${query.name}%`);
  const page = await paginate(q, { page: query, sortable: { name: 'name', notAfter: 'not_after', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'desc' } });
  return { data: await toItems(deps, page.data), total: page.total };
}

export async function metaCertificates(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  return deps.db.selectFrom('certificates').select(['id', 'name']).where('site_id', '=', siteId).orderBy('name').execute();
}

export async function certificateDetail(deps: AppDeps, principal: Principal, siteId: number, id: number) {
  await sitesRepo(deps, principal).get(siteId);
  const row = await certOf(deps, siteId, id);
  return { ...(await toItems(deps, [row]))[0], certificate: row.chain };
}

export async function createCertificate(deps: AppDeps, principal: Principal, siteId: number, body: { name: string; certificate: string; key: string }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const name = checkName(body.name);
  const parsed = parseCertificate(body.certificate, body.key);
  await claimNames(deps, site.userID, parsed.names);
  const at = now();
  const row = await deps.db
    .insertInto('certificates')
    .values({
      site_id: siteId,
      name,
      chain: parsed.chain,
      key_sealed: encrypt(deps.secrets.dataKey, body.key),
      subject: parsed.subject,
      names: JSON.stringify(parsed.names),
      issuer: parsed.issuer,
      not_before: parsed.notBefore,
      not_after: parsed.notAfter,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return (await toItems(deps, [row]))[0];
}

export async function updateCertificate(deps: AppDeps, principal: Principal, siteId: number, body: { id: number; name?: string; certificate?: string; key?: string }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await certOf(deps, siteId, body.id);
  const name = body.name === undefined ? undefined : checkName(body.name);
  if ((body.certificate === undefined) !== (body.key === undefined)) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: body.key === undefined ? 'key' : 'certificate', message: 'a new chain comes with its key' }] } });
  }
  const parsed = body.certificate && body.key ? parseCertificate(body.certificate, body.key) : undefined;
  if (parsed) await claimNames(deps, site.userID, parsed.names);
  await deps.db
    .updateTable('certificates')
    .set({
      ...(name === undefined ? {} : { name }),
      ...(parsed
        ? { chain: parsed.chain, key_sealed: encrypt(deps.secrets.dataKey, body.key!), subject: parsed.subject, names: JSON.stringify(parsed.names), issuer: parsed.issuer, not_before: parsed.notBefore, not_after: parsed.notAfter }
        : {}),
      updated_at: now(),
    })
    .where('id', '=', body.id)
    .execute();
  if (parsed) await sitesChanged(deps, [site, ...(await sitesServing(deps, body.id))]);
  return (await toItems(deps, [await certOf(deps, siteId, body.id)]))[0];
}

/** Serves the certificate on exactly these domains of the site; each must be covered by its names. */
export async function bindCertificate(deps: AppDeps, principal: Principal, siteId: number, body: { id: number; domainIDs: number[] }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const cert = await certOf(deps, siteId, body.id);
  const names = readJson('certificates.names', stringList, cert.names);
  const domains = body.domainIDs.length
    ? await deps.db.selectFrom('domains').select(['id', 'name']).where('site_id', '=', siteId).where('id', 'in', body.domainIDs).execute()
    : [];
  if (domains.length !== new Set(body.domainIDs).size) throw notFound('domain');
  const uncovered = domains.filter((d) => !covers(names, d.name)).map((d) => d.name);
  if (uncovered.length) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'domainIDs', message: `not covered by the certificate: ${uncovered.join(', ')}` }] } });
  const unbound = await sitesServing(deps, cert.id);
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('domains').set({ certificate_id: null }).where('certificate_id', '=', cert.id).execute();
    if (domains.length) await trx.updateTable('domains').set({ certificate_id: cert.id, updated_at: now() }).where('id', 'in', domains.map((d) => d.id)).execute();
  });
  await sitesChanged(deps, [site, ...unbound]);
  return (await toItems(deps, [cert]))[0];
}

/** A certificate a domain still serves is not removed: unbind it first. */
export async function removeCertificates(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  await sitesRepo(deps, principal).get(siteId);
  for (const id of ids) await certOf(deps, siteId, id);
  const used = await deps.db.selectFrom('domains').select('name').where('certificate_id', 'in', ids).execute();
  if (used.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'in use', domains: used.map((d) => d.name) } });
  await deps.db.deleteFrom('certificates').where('id', 'in', ids).execute();
}
