import { Codes, domainSchemas, ITEM_LIST_MAX, messageOf, type ErrorCode } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { assertCanCreate } from '../licenses/limits';
import { reachSite, sitesRepo, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { checkNames, takeOver, type NameCheck } from './ownership';
import { domainsRepo, type NewDomain } from './repo';
import { toUpstream, upstreamRow, type UpstreamInput } from './rows';

type Upstreams = ReturnType<ReturnType<typeof domainsRepo>['upstreams']>;
type DomainRow = Awaited<ReturnType<ReturnType<typeof domainsRepo>['get']>>;

export async function listDomains(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<typeof domainSchemas.domainsQuery>) {
  return (await reachSite(deps, principal, siteId, domainsRepo)).repo.page(query);
}

const refusal = (code: ErrorCode, target: string) => ({ code, message: messageOf(code, 'en_US')!, targets: [target] });

/**
 * Adds domains to a site, all or none: names already in the batch (101025), enabled anywhere or under a registered
 * domain another tenant uses (401001) are listed in one 101009; then the product's and the license's domain counts (401002) apply.
 * A site with layer-4 ports is a layer-4 site: it takes no domains (205004).
 */
export async function insertDomains(deps: AppDeps, site: ReachedSite, entries: NewDomain[], refusals: ReturnType<typeof refusal>[] = []) {
  const repo = domainsRepo(deps.db, site);
  if ((await repo.l4PortCount()) > 0) throw new ApiError(Codes.SiteHasL4Ports);
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
  const limit = site.limitations.domainLimit ?? (await repo.productDomainLimit());
  if (limit > 0 && site.domainCount + entries.length > limit) throw new ApiError(Codes.DomainCountExceeded, { extra: { limit } });
  // What one site's part of the edge state can carry, whatever the licence allows.
  if (site.domainCount + entries.length > ITEM_LIST_MAX) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: ITEM_LIST_MAX } });
  await assertCanCreate(deps, { clientId: site.productClientID, kind: 'domain', adding: entries.length });
  await takeOver(deps, { ownerId: site.userID, domains: owned.proven });
  const made = await repo.insert(entries);
  await sitesChanged(deps, [site]);
  return made;
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
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const d = await repo.get(body.id);
  let owned: NameCheck | undefined;
  if (body.status === 1 && d.status !== 1) {
    owned = await checkNames(deps, { ownerId: site.userID, names: [d.name], exceptIds: [d.id] });
    if (owned.refused.length) throw new ApiError(Codes.DuplicateDomain, owned.challenges.length ? { extra: { challenges: owned.challenges } } : {});
  }
  if (body.protocol === 'follow' && !JSON.parse(d.port_map).enabled) throw new ApiError(Codes.IllegalPortMapping, { extra: 'the follow protocol needs port mapping on' });
  if (owned) await takeOver(deps, { ownerId: site.userID, domains: owned.proven });
  await repo.set([d.id], {
    ...(body.status === undefined ? {} : { status: body.status }),
    ...(body.protocol === undefined ? {} : { protocol: body.protocol }),
    ...(body.forceSSL === undefined ? {} : { force_ssl: body.forceSSL ? 1 : 0 }),
    ...(body.hsts === undefined ? {} : { hsts: body.hsts ? 1 : 0 }),
  });
  await sitesChanged(deps, [site]);
  return repo.item(d.id);
}

export async function removeDomains(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  for (const id of ids) await repo.get(id);
  await repo.remove(ids);
  await sitesChanged(deps, [site]);
}

export async function listUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, query: z.infer<typeof domainSchemas.upstreamsQuery>) {
  const { repo } = await reachSite(deps, principal, siteId, domainsRepo);
  return repo.upstreams(await repo.get(domainId)).page(query);
}

export async function addUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, upstreams: UpstreamInput[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const added = await repo.upstreams(await repo.get(domainId)).add(upstreams);
  await sitesChanged(deps, [site]);
  return added;
}

/** A domain keeps at least one enabled origin (401008); checked inside the change's transaction so a refusal undoes it. */
async function keepingAnOrigin(deps: AppDeps, site: ReachedSite, domain: DomainRow, change: (ups: Upstreams) => Promise<unknown>) {
  await deps.db.transaction().execute(async (trx) => {
    const ups = domainsRepo(trx, site).upstreams(domain);
    await change(ups);
    if ((await ups.enabledLeft()) === 0) throw new ApiError(Codes.OriginRequired);
  });
}

export async function updateUpstream(deps: AppDeps, principal: Principal, siteId: number, domainId: number, body: z.infer<typeof domainSchemas.updateUpstreamBody>) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  const domain = await repo.get(domainId);
  const ups = repo.upstreams(domain);
  const current = await ups.get(body.id);
  if (!current) throw notFound('origin');
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const { domain_id: _domain, ...values } = upstreamRow(domainId, { ...toUpstream(current), ...given } as UpstreamInput);
  await keepingAnOrigin(deps, site, domain, (inTrx) => inTrx.update(body.id, values));
  await sitesChanged(deps, [site]);
  return toUpstream((await ups.get(body.id))!);
}

export async function removeUpstreams(deps: AppDeps, principal: Principal, siteId: number, domainId: number, ids: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, domainsRepo);
  await keepingAnOrigin(deps, site, await repo.get(domainId), async (inTrx) => {
    if ((await inTrx.remove(ids)) !== new Set(ids).size) throw notFound('origin');
  });
  await sitesChanged(deps, [site]);
}
