import { Codes, siteSettingSchemas } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { encrypt } from '../../lib/crypto';
import { domainsRepo } from '../domains/repo';
import { checkClaims, takeOver } from '../domains/ownership';
import { reachSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { covers, parseCertificate } from './pem';
import { certificatesRepo, sitesServing } from './repo';
import { readJson, stringList } from '../../db/json-column';

function checkName(name: string) {
  const parsed = siteSettingSchemas.certificateName.safeParse(name);
  if (!parsed.success) throw new ApiError(Codes.InvalidCertificateName, { extra: { fields: [{ in: 'body', field: 'name', message: 'at most 64 characters' }] } });
  return parsed.data;
}

/** A certificate's names lie under registered domains the site's tenant holds or has proven (401001). */
async function claimNames(deps: AppDeps, ownerId: number, names: string[]) {
  const claims = await checkClaims(deps, { ownerId, names });
  if (claims.refused.length) throw new ApiError(Codes.DuplicateDomain, { extra: { domains: claims.refused, challenges: claims.challenges } });
  await takeOver(deps, { ownerId, domains: claims.proven });
}

export async function listCertificates(deps: AppDeps, principal: Principal, siteId: number, query: { page: number; pageSize: number; sortBy?: string; orderBy?: 'asc' | 'desc' | 'ascend' | 'descend'; name?: string }) {
  const { repo } = await reachSite(deps, principal, siteId, certificatesRepo);
  return repo.page(query);
}

export async function metaCertificates(deps: AppDeps, principal: Principal, siteId: number) {
  const { repo } = await reachSite(deps, principal, siteId, certificatesRepo);
  return repo.names();
}

export async function certificateDetail(deps: AppDeps, principal: Principal, siteId: number, id: number) {
  const { repo } = await reachSite(deps, principal, siteId, certificatesRepo);
  const row = await repo.get(id);
  return { ...(await repo.item(row)), certificate: row.chain };
}

export async function createCertificate(deps: AppDeps, principal: Principal, siteId: number, body: { name: string; certificate: string; key: string }) {
  const { site, repo } = await reachSite(deps, principal, siteId, certificatesRepo);
  const name = checkName(body.name);
  const parsed = parseCertificate(body.certificate, body.key);
  await claimNames(deps, site.userID, parsed.names);
  const row = await repo.insert({
    name,
    chain: parsed.chain,
    key_sealed: encrypt(deps.secrets.dataKey, body.key),
    subject: parsed.subject,
    names: JSON.stringify(parsed.names),
    issuer: parsed.issuer,
    not_before: parsed.notBefore,
    not_after: parsed.notAfter,
  });
  return repo.item(row);
}

export async function updateCertificate(deps: AppDeps, principal: Principal, siteId: number, body: { id: number; name?: string; certificate?: string; key?: string }) {
  const { site, repo } = await reachSite(deps, principal, siteId, certificatesRepo);
  await repo.get(body.id);
  const name = body.name === undefined ? undefined : checkName(body.name);
  if ((body.certificate === undefined) !== (body.key === undefined)) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: body.key === undefined ? 'key' : 'certificate', message: 'a new chain comes with its key' }] } });
  }
  const parsed = body.certificate && body.key ? parseCertificate(body.certificate, body.key) : undefined;
  if (parsed) await claimNames(deps, site.userID, parsed.names);
  await repo.update(body.id, {
    ...(name === undefined ? {} : { name }),
    ...(parsed
      ? { chain: parsed.chain, key_sealed: encrypt(deps.secrets.dataKey, body.key!), subject: parsed.subject, names: JSON.stringify(parsed.names), issuer: parsed.issuer, not_before: parsed.notBefore, not_after: parsed.notAfter }
      : {}),
  });
  if (parsed) await sitesChanged(deps, [site, ...(await sitesServing(deps.db, body.id))]);
  return repo.item(await repo.get(body.id));
}

/** Serves the certificate on exactly these domains of the site; each must be covered by its names. */
export async function bindCertificate(deps: AppDeps, principal: Principal, siteId: number, body: { id: number; domainIDs: number[] }) {
  const { site, repo } = await reachSite(deps, principal, siteId, certificatesRepo);
  const cert = await repo.get(body.id);
  const names = readJson('certificates.names', stringList, cert.names);
  const domains = body.domainIDs.length ? await domainsRepo(deps.db, site).some(body.domainIDs) : [];
  const uncovered = domains.filter((d) => !covers(names, d.name)).map((d) => d.name);
  if (uncovered.length) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'domainIDs', message: `not covered by the certificate: ${uncovered.join(', ')}` }] } });
  const unbound = await sitesServing(deps.db, cert.id);
  await repo.bind(cert, domains);
  await sitesChanged(deps, [site, ...unbound]);
  return repo.item(cert);
}

/** A certificate a domain still serves is not removed: unbind it first. */
export async function removeCertificates(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { repo } = await reachSite(deps, principal, siteId, certificatesRepo);
  for (const id of ids) await repo.get(id);
  const used = await repo.servedBy(ids);
  if (used.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'in use', domains: used } });
  await repo.remove(ids);
}
