import type { z } from 'zod';
import type { accountSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { auditRepo } from './repo';

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

export async function queryAuditLogs(deps: AppDeps, principal: Principal, query: z.infer<typeof accountSchemas.auditQuery>) {
  const page = await auditRepo(deps.db, principal).page(query);
  return { total: page.total, data: page.data.map(auditItem) };
}
