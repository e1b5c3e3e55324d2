import { domainSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { DomainTable, UpstreamTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { notFound } from '../../http/errors';
import { readJson, stringList } from '../../db/json-column';

export type UpstreamInput = z.infer<typeof domainSchemas.upstreamInput>;
export type PortMap = z.infer<typeof domainSchemas.portMap>;
type CertStatus = (typeof domainSchemas.CERT_STATUSES)[number];

export const toUpstream = (u: Selectable<UpstreamTable>) => ({
  id: u.id,
  host: u.host,
  port: u.port,
  weight: u.weight,
  backup: u.backup === 1,
  maxFails: u.max_fails,
  failTimeout: u.fail_timeout,
  enabled: u.enabled === 1,
  hash: u.hash,
  keepalive: u.keepalive,
});
export const upstreamRow = (domainId: number, u: UpstreamInput) =>
  ({
    domain_id: domainId,
    host: u.host,
    port: u.port,
    weight: u.weight,
    backup: u.backup ? 1 : 0,
    max_fails: u.maxFails,
    fail_timeout: u.failTimeout,
    enabled: u.enabled ? 1 : 0,
    hash: u.hash,
    keepalive: u.keepalive,
  }) as const;

export const portMapOf = (d: Pick<Selectable<DomainTable>, 'port_map'>): PortMap => readJson('domains.port_map', domainSchemas.portMap, d.port_map);

/** none without a certificate; expired once its not-after has passed. */
export async function certStatuses(deps: AppDeps, rows: Selectable<DomainTable>[]) {
  const ids = [...new Set(rows.map((r) => r.certificate_id).filter((x): x is number => x !== null))];
  const certs = ids.length ? await deps.db.selectFrom('certificates').select(['id', 'not_after']).where('id', 'in', ids).execute() : [];
  const at = new Date().toISOString();
  return (d: Selectable<DomainTable>): CertStatus => {
    const c = certs.find((x) => x.id === d.certificate_id);
    if (!c) return 'none';
    return c.not_after > at ? 'valid' : 'expired';
  };
}

export async function toSettings(deps: AppDeps, rows: Selectable<DomainTable>[]) {
  const certOf = await certStatuses(deps, rows);
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    status: d.status,
    scheme: d.protocol,
    portMap: portMapOf(d),
    forceSSL: d.force_ssl === 1,
    hsts: d.hsts === 1,
    autoSSL: d.auto_ssl === 1,
    balance: d.balance,
    certStatus: certOf(d),
    tags: readJson('domains.tags', stringList, d.tags),
  }));
}

export async function toItems(deps: AppDeps, rows: Selectable<DomainTable>[]) {
  const ups = rows.length ? await deps.db.selectFrom('upstreams').selectAll().where('domain_id', 'in', rows.map((r) => r.id)).orderBy('id').execute() : [];
  const certOf = await certStatuses(deps, rows);
  return rows.map((d) => ({
    id: d.id,
    siteID: d.site_id,
    name: d.name,
    status: d.status,
    protocol: d.protocol,
    forceSSL: d.force_ssl === 1,
    hsts: d.hsts === 1,
    tags: readJson('domains.tags', stringList, d.tags),
    cnameStatus: d.cname_status,
    cnameCheckedAt: d.cname_checked_at,
    autoSSL: d.auto_ssl === 1,
    balance: d.balance,
    portMap: portMapOf(d),
    certificateID: d.certificate_id,
    certStatus: certOf(d),
    upstreams: ups.filter((u) => u.domain_id === d.id).map(toUpstream),
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  }));
}

export async function domainOf(deps: AppDeps, siteId: number, domainId: number) {
  const d = await deps.db.selectFrom('domains').selectAll().where('id', '=', domainId).where('site_id', '=', siteId).executeTakeFirst();
  if (!d) throw notFound('domain');
  return d;
}

/** Every one of `ids` must be a domain of the site; a foreign id answers like a missing one. */
export async function domainsOf(deps: AppDeps, siteId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await deps.db.selectFrom('domains').selectAll().where('site_id', '=', siteId).where('id', 'in', unique).orderBy('id').execute();
  if (rows.length !== unique.length) throw notFound('domain');
  return rows;
}
