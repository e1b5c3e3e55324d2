import { edge, type PageQuery } from '@edgekeep/contract';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { domainsOf, saveModule, siteOf } from './core';
import { readWafConfig } from './stored';

const KIND = 'waf' as const;
type Row = { id: number; name: string; config: string; created_at: string; updated_at: string };

async function toItems(deps: AppDeps, rows: Row[]) {
  const domains = await domainsOf(deps, rows.map((r) => r.id));
  return rows.map((r) => ({ id: r.id, name: r.name, ...readWafConfig(r.config), domains: domains.get(r.id) ?? [], createdAt: r.created_at, updatedAt: r.updated_at }));
}

export const defaultRules = () => edge.CRS_GROUPS.map((g) => ({ id: g.id, name: g.name }));

export async function listWafs(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery & { name?: string } }) {
  await siteOf(deps, principal, o.siteId);
  let q = deps.db.selectFrom('site_modules').select(['id', 'name', 'config', 'created_at', 'updated_at']).where('site_id', '=', o.siteId).where('kind', '=', KIND);
  if (o.query.name) q = q.where('name', 'like', `%${o.query.name}%`);
  const page = await paginate(q, { page: o.query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'asc' } });
  return { data: await toItems(deps, page.data), total: page.total };
}

export async function saveWaf(deps: AppDeps, principal: Principal, o: { siteId: number; body: edge.WafSetting & { id?: number; name: string } }) {
  const { id, name, ...config } = o.body;
  const row = await saveModule(deps, principal, { siteId: o.siteId, kind: KIND, id, name, config });
  return (await toItems(deps, [row]))[0];
}
