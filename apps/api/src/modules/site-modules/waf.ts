import { edge, type PageQuery } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { reachModules, saveModule } from './core';
import type { ModuleRow, siteModulesRepo } from './repo';
import { readWafConfig } from './stored';

const KIND = 'waf' as const;

async function toItems(repo: ReturnType<typeof siteModulesRepo>, rows: ModuleRow[]) {
  const domains = await repo.assignedDomains(rows.map((r) => r.id));
  return rows.map((r) => ({ id: r.id, name: r.name, ...readWafConfig(r.config), domains: domains.get(r.id) ?? [], createdAt: r.created_at, updatedAt: r.updated_at }));
}

export const defaultRules = () => edge.CRS_GROUPS.map((g) => ({ id: g.id, name: g.name }));

export async function listWafs(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery & { name?: string } }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  const page = await repo.page(KIND, o.query, { name: 'name', createdAt: 'created_at' });
  return { data: await toItems(repo, page.data), total: page.total };
}

export async function saveWaf(deps: AppDeps, principal: Principal, o: { siteId: number; body: edge.WafSetting & { id?: number; name: string } }) {
  const { id, name, ...config } = o.body;
  const reached = await reachModules(deps, principal, o.siteId);
  const row = await saveModule(deps, reached, { kind: KIND, id, name, config });
  return (await toItems(reached.repo, [row]))[0];
}
