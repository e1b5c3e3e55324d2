import { Codes, edge, type clientSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound, validationError } from '../../http/errors';
import { settingsClientId, zonesOfClient } from '../client-settings/repo';
import * as repo from './repo';

type Update = z.infer<typeof clientSettingSchemas.updateClientErrorPage>;

const duplicate = () => new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'status', message: 'Data already exists!' }] } });

async function assertStatusFree(deps: AppDeps, o: { clientId: number; status: number; except?: number }) {
  if (await repo.statusTaken(deps.db, o)) throw duplicate();
}

const reachEdge = async (deps: AppDeps, clientId: number) => deps.revisions.bump(deps.db, await zonesOfClient(deps.db, clientId));

export async function listDefaultPages(deps: AppDeps, principal: Principal, page: { page: number; pageSize: number }) {
  return repo.listPages(deps.db, await settingsClientId(deps, principal), page);
}

export async function addDefaultPage(deps: AppDeps, principal: Principal, page: edge.ErrorPage) {
  const clientId = await settingsClientId(deps, principal);
  await assertStatusFree(deps, { clientId, status: page.status });
  const row = await repo.insertPage(deps.db, clientId, page);
  await reachEdge(deps, clientId);
  return repo.toItem(row);
}

/** Changes some fields of a page; the page that results goes through the same rules as a new one. */
export async function updateDefaultPage(deps: AppDeps, principal: Principal, body: Update) {
  const clientId = await settingsClientId(deps, principal);
  const row = await repo.findPage(deps.db, clientId, body.id);
  if (!row) throw notFound('error page');
  const next = edge.errorPage.safeParse({ status: body.status ?? row.status, type: body.type ?? row.type, body: body.body ?? row.body });
  if (!next.success) throw validationError(next.error, 'body');
  await assertStatusFree(deps, { clientId, status: next.data.status, except: row.id });
  const updated = await repo.updatePage(deps.db, { clientId, id: row.id, page: next.data });
  await reachEdge(deps, clientId);
  return repo.toItem(updated);
}

export async function removeDefaultPages(deps: AppDeps, principal: Principal, ids: number[]) {
  const clientId = await settingsClientId(deps, principal);
  if (!(await repo.removePages(deps.db, clientId, ids))) throw notFound('error page');
  await reachEdge(deps, clientId);
}
