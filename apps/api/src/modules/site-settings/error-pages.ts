import { Codes, type edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { reachSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { siteSettingsRepo } from './repo';

type PageRow = { id: number; status: number; type: string; body: string; created_at: string; updated_at: string };
const toPage = (p: PageRow) => ({
  id: p.id,
  status: p.status as edge.ErrorPage['status'],
  type: p.type as edge.ErrorPage['type'],
  body: p.body,
  createdAt: p.created_at,
  updatedAt: p.updated_at,
});

const statusTaken = () => new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'status', message: 'Data already exists!' }] } });

export async function listErrorPages(deps: AppDeps, principal: Principal, siteId: number, page: { page: number; pageSize: number }) {
  const { repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  const result = await repo.errorPagesPage(page);
  return { data: result.data.map(toPage), total: result.total };
}

export async function addErrorPage(deps: AppDeps, principal: Principal, siteId: number, page: edge.ErrorPage) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  if (await repo.errorStatusTaken(page.status)) throw statusTaken();
  const row = await repo.addErrorPage(page);
  await sitesChanged(deps, [site]);
  return toPage(row);
}

export async function updateErrorPage(deps: AppDeps, principal: Principal, siteId: number, body: edge.ErrorPage & { id: number }) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  if (await repo.errorStatusTaken(body.status, body.id)) throw statusTaken();
  const row = await repo.updateErrorPage(body.id, body);
  await sitesChanged(deps, [site]);
  return toPage(row);
}

export async function removeErrorPages(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await repo.removeErrorPages(ids);
  await sitesChanged(deps, [site]);
}
