import { Codes, type edge } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { assertOwnUrls } from './site-urls';

const MAX_RATE_RULES = 100;

const duplicate = () => new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'url', message: 'Data already exists!' }] } });

async function assertUrlFree(deps: AppDeps, siteId: number, url: string, except?: number) {
  let q = deps.db.selectFrom('site_rate_rules').select('id').where('site_id', '=', siteId).where('url', '=', url);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw duplicate();
}

export async function rateRules(deps: AppDeps, siteId: number) {
  const rows = await deps.db.selectFrom('site_rate_rules').select(['id', 'url', 'rate']).where('site_id', '=', siteId).orderBy('id').execute();
  return rows;
}

export async function addRate(deps: AppDeps, principal: Principal, siteId: number, rule: edge.RateRule) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await assertOwnUrls(deps, siteId, [rule.url], 'url');
  const count = await deps.db.selectFrom('site_rate_rules').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', siteId).executeTakeFirst();
  if (toCount(count?.n as number) >= MAX_RATE_RULES) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: MAX_RATE_RULES } });
  await assertUrlFree(deps, siteId, rule.url);
  const at = now();
  await deps.db.insertInto('site_rate_rules').values({ site_id: siteId, url: rule.url, rate: rule.rate, created_at: at, updated_at: at }).execute();
  await sitesChanged(deps, [site]);
}

export async function updateRate(deps: AppDeps, principal: Principal, siteId: number, body: edge.RateRule & { id: number }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const own = await deps.db.selectFrom('site_rate_rules').select('id').where('id', '=', body.id).where('site_id', '=', siteId).executeTakeFirst();
  if (!own) throw notFound('rate rule');
  await assertOwnUrls(deps, siteId, [body.url], 'url');
  await assertUrlFree(deps, siteId, body.url, body.id);
  await deps.db.updateTable('site_rate_rules').set({ url: body.url, rate: body.rate, updated_at: now() }).where('id', '=', body.id).execute();
  await sitesChanged(deps, [site]);
}

export async function removeRates(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const owned = await deps.db.selectFrom('site_rate_rules').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (owned.length !== new Set(ids).size) throw notFound('rate rule');
  await deps.db.deleteFrom('site_rate_rules').where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}
