import { Codes, edge, type wafAclSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { triggerRatesOfSite } from '../client-settings/repo';

type Input = z.infer<typeof wafAclSchemas.anticcInput>;
type Row = { id: number; url_regex: string; seconds: number; times: number; type: number; priority: number; enabled: number; created_at: string };

const toItem = (r: Row) => ({
  id: r.id,
  urlRegex: r.url_regex,
  seconds: r.seconds,
  times: r.times,
  type: r.type as Input['type'],
  priority: r.priority,
  enabled: r.enabled === 1,
  createdAt: r.created_at,
});

/** The windows and thresholds the form offers; any value in range is taken. */
export const FREQS = { seconds: [5, 10, 30, 60, 300], times: [10, 30, 60, 100, 300, 1000], defaults: { seconds: 10, times: 60 } };

function checkRegex(urlRegex: string) {
  const problem = edge.regexProblem(urlRegex);
  if (problem) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'urlRegex', message: `the URL regular expression is refused: ${problem}` }] } });
}

export async function listAnticcs(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<typeof wafAclSchemas.anticcsQuery>) {
  await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('site_anticc_rules').selectAll().where('site_id', '=', siteId);
  if (query.urlRegex) q = q.where('url_regex', 'like', `%${query.urlRegex}%`);
  if (query.type) q = q.where('type', '=', query.type);
  const page = await paginate(q, {
    page: query,
    sortable: { priority: 'priority', urlRegex: 'url_regex', createdAt: 'created_at' },
    defaultSort: { column: 'priority', order: 'asc' },
  });
  return { data: page.data.map(toItem), total: page.total };
}

const columns = (r: Input) => ({
  url_regex: r.urlRegex, seconds: r.seconds, times: r.times, type: r.type, priority: r.priority, enabled: (r.enabled ? 1 : 0) as 0 | 1,
});

export async function createAnticc(deps: AppDeps, principal: Principal, siteId: number, body: Input) {
  const site = await sitesRepo(deps, principal).get(siteId);
  checkRegex(body.urlRegex);
  const row = await deps.db.insertInto('site_anticc_rules').values({ site_id: siteId, ...columns(body), created_at: now() }).returningAll().executeTakeFirstOrThrow();
  await sitesChanged(deps, [site]);
  return toItem(row);
}

async function ruleOf(deps: AppDeps, siteId: number, id: number) {
  const row = await deps.db.selectFrom('site_anticc_rules').selectAll().where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst();
  if (!row) throw notFound('rule');
  return row;
}

export async function updateAnticc(deps: AppDeps, principal: Principal, siteId: number, body: Partial<Input> & { id: number }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const { id, ...changes } = body;
  const next = { ...toItem(await ruleOf(deps, siteId, id)), ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as Input;
  checkRegex(next.urlRegex);
  await deps.db.updateTable('site_anticc_rules').set(columns(next)).where('id', '=', id).execute();
  await sitesChanged(deps, [site]);
  return toItem(await ruleOf(deps, siteId, id));
}

async function owned(deps: AppDeps, siteId: number, ids: number[]) {
  const rows = await deps.db.selectFrom('site_anticc_rules').select(['id', 'enabled']).where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('rule');
  return rows;
}

export async function enableAnticcs(deps: AppDeps, principal: Principal, siteId: number, ids: number[], enabled: boolean) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await owned(deps, siteId, ids);
  await deps.db.updateTable('site_anticc_rules').set({ enabled: enabled ? 1 : 0 }).where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

/** Spec §4: an enabled rule must be closed before removal. */
export async function removeAnticcs(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  await sitesRepo(deps, principal).get(siteId);
  const rows = await owned(deps, siteId, ids);
  const enabled = rows.filter((r) => r.enabled === 1).map((r) => r.id);
  if (enabled.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'close enabled rules before removing them', ids: enabled } });
  await deps.db.deleteFrom('site_anticc_rules').where('id', 'in', ids).execute();
}

/** The windows and thresholds offered: the common ones and the client's predefined trigger rates; the first rate starts a new rule. */
export async function anticcFreqs(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  const { rates } = await triggerRatesOfSite(deps, siteId);
  const merged = (own: number[], preset: number[]) => [...new Set([...own, ...preset])].sort((a, b) => a - b);
  return {
    seconds: merged(FREQS.seconds, rates.map((r) => r.seconds)),
    times: merged(FREQS.times, rates.map((r) => r.requests)),
    defaults: { seconds: rates[0].seconds, times: rates[0].requests },
  };
}
