import type { accountSchemas } from '@edgekeep/contract';
import type { Insertable } from 'kysely';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { AuditLogTable } from '../../db/schema';
import type { Principal } from '../../http/auth';

type Query = z.infer<typeof accountSchemas.auditQuery>;
export type AuditFilter = Omit<Query, 'page' | 'pageSize'>;

/**
 * The operation log a reader may read: an operator all of it, a client or user its own lines and those of the accounts
 * below it. Another tenant's lines are not there.
 */
export function auditRepo(db: Db, reader: Pick<Principal, 'accountId' | 'tier'>) {
  /** The reader's lines that pass the filter, as a query (the export reads them in batches). */
  function lines(filter: AuditFilter) {
    let q = db.selectFrom('audit_logs').selectAll();
    if (reader.tier !== 'admin') {
      q = q.where((eb) =>
        eb.or([
          eb('audit_logs.account_id', '=', reader.accountId),
          eb('audit_logs.account_id', 'in', eb.selectFrom('accounts').select('accounts.id').where('accounts.tree_path', 'like', `%/${reader.accountId}/%`)),
        ]),
      );
    }
    if (filter.accountName) q = q.where('account_name', 'like', `%${filter.accountName.toLowerCase()}%`);
    if (filter.proxyName) q = q.where('proxy_name', 'like', `%${filter.proxyName.toLowerCase()}%`);
    if (filter.method) q = q.where('method', '=', filter.method);
    if (filter.reqID) q = q.where('req_id', '=', filter.reqID);
    if (filter.url) q = q.where('url', 'like', `%${filter.url}%`);
    if (filter.type) q = q.where('type', '=', filter.type);
    if (filter.startTime) q = q.where('created_at', '>=', filter.startTime);
    if (filter.endTime) q = q.where('created_at', '<=', filter.endTime);
    return q;
  }
  return {
    lines,
    page: (query: Query) => paginate(lines(query), { page: query, sortable: {}, defaultSort: { column: 'created_at', order: 'desc' } }),
  };
}

/** Unscoped, for the recorder: one line of the operation log, written now. */
export const insertAuditLine = (db: Db, values: Omit<Insertable<AuditLogTable>, 'created_at'>) =>
  db.insertInto('audit_logs').values({ ...values, created_at: now() }).execute();
