import type { z } from 'zod';
import type { accountSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { paginate } from '../../db/paging';

type Query = z.infer<typeof accountSchemas.auditQuery>;
type Filter = Omit<Query, 'page' | 'pageSize'>;

/** The operation log an account may read: an admin reads all of it, others their own and their subtree's. */
export function auditScope(deps: AppDeps, reader: Pick<Principal, 'accountId' | 'tier'>, query: Filter) {
  let q = deps.db.selectFrom('audit_logs').selectAll();
  if (reader.tier !== 'admin') {
    q = q.where((eb) =>
      eb.or([
        eb('audit_logs.account_id', '=', reader.accountId),
        eb('audit_logs.account_id', 'in', eb.selectFrom('accounts').select('accounts.id').where('accounts.tree_path', 'like', `%/${reader.accountId}/%`)),
      ]),
    );
  }
  if (query.accountName) q = q.where('account_name', 'like', `%${query.accountName.toLowerCase()}%`);
  if (query.proxyName) q = q.where('proxy_name', 'like', `%${query.proxyName.toLowerCase()}%`);
  if (query.method) q = q.where('method', '=', query.method);
  if (query.reqID) q = q.where('req_id', '=', query.reqID);
  if (query.url) q = q.where('url', 'like', `%${query.url}%`);
  if (query.type) q = q.where('type', '=', query.type);
  if (query.startTime) q = q.where('created_at', '>=', query.startTime);
  if (query.endTime) q = q.where('created_at', '<=', query.endTime);
  return q;
}

export const auditItem = (r: Selectable<AuditLogTable>) => ({
  id: r.id,
  type: r.type,
  accountName: r.account_name,
  proxyName: r.proxy_name,
  method: r.method,
  url: r.url,
  reqID: r.req_id,
  status: r.status,
  code: r.code,
  ip: r.ip,
  body: r.body,
  createdAt: r.created_at,
});

export async function queryAuditLogs(deps: AppDeps, principal: Principal, query: Query) {
  const page = await paginate(auditScope(deps, principal, query), { page: query, sortable: {}, defaultSort: { column: 'created_at', order: 'desc' } });
  return { total: page.total, data: page.data.map(auditItem) };
}
