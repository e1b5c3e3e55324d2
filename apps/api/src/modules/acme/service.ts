import { autoCertificateSchemas, CERT_BUDGET } from '@edgekeep/contract';
import type { z } from 'zod';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import * as repo from './repo';

type S = typeof autoCertificateSchemas;
const hintOf = (hint: string | null) => autoCertificateSchemas.autoCertHint.nullable().catch(null).parse(hint);
type Item = z.infer<S['autoCertificate']>;

async function toItems(deps: AppDeps, rows: (repo.AutoCertRow & { site_name: string })[]): Promise<Item[]> {
  const used = await repo.budgetUsed(deps.db, rows.map((r) => r.registered_domain));
  return rows.map((r) => ({
    id: r.id,
    domainId: r.domain_id,
    domainName: r.name,
    siteId: r.site_id,
    siteName: r.site_name,
    status: r.status,
    challenge: r.challenge,
    certificateId: r.certificate_id,
    notAfter: r.not_after,
    renewAt: r.renew_at,
    nextAttemptAt: r.next_attempt_at,
    attempts: r.attempts,
    error: r.last_error,
    hint: hintOf(r.hint),
    budget: { registeredDomain: r.registered_domain, used: used.get(r.registered_domain) ?? 0, limit: CERT_BUDGET },
    updatedAt: r.updated_at,
  }));
}

export async function listAutoCertificates(deps: AppDeps, principal: Principal, query: z.infer<S['autoCertificatesQuery']>) {
  await repo.syncQueue(deps.db);
  let q = repo.listQuery(deps.db, await sitesRepo(deps, principal).ids());
  if (query.keyword) q = q.where('auto_certificates.name', 'like', `%${query.keyword.toLowerCase()}%`);
  if (query.status) q = q.where('auto_certificates.status', '=', query.status);
  const page = await paginate(q, {
    page: query,
    sortable: { domainName: 'auto_certificates.name', notAfter: 'auto_certificates.not_after', renewAt: 'auto_certificates.renew_at', status: 'auto_certificates.status', updatedAt: 'auto_certificates.updated_at' },
    defaultSort: { column: 'auto_certificates.name', order: 'asc' },
    idColumn: 'auto_certificates.id',
  });
  return { data: await toItems(deps, page.data), total: page.total };
}

/** Reapply one or a batch: due now. Ids the caller does not reach answer as missing, and nothing is queued. */
export async function renewAutoCertificates(deps: AppDeps, principal: Principal, ids: number[]) {
  const reached = await repo.listQuery(deps.db, await sitesRepo(deps, principal).ids()).where('auto_certificates.id', 'in', ids).execute();
  if (reached.length !== new Set(ids).size) throw notFound('autoCertificate');
  const queued = await repo.requeue(deps.db, ids);
  void deps.scheduler.runNow(ACME_JOB).catch(() => undefined);
  return { queued };
}

export async function siteAutoCertificates(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  await repo.syncQueue(deps.db);
  const rows = await repo.listQuery(deps.db, [siteId]).orderBy('auto_certificates.name').execute();
  return rows.map((r) => ({ domainId: r.domain_id, domainName: r.name, status: r.status, certificateId: r.certificate_id, notAfter: r.not_after, renewAt: r.renew_at, error: r.last_error, hint: hintOf(r.hint) }));
}

export const ACME_JOB = 'acme-orders';
