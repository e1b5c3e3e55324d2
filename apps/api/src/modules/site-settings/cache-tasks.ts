import { edge, type siteSettingSchemas } from '@edgekeep/contract';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { queueForZone } from './node-queue';
import { assertOwnUrls, domainNames } from './site-urls';
import { idList, readJson, stringList } from '../../db/json-column';

/**
 * Empties what cache rules cache: the URL prefixes of URL rules, and the files of the rules' types on every
 * domain of the site.
 */
export async function purgeCacheRules(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const rows = await deps.db.selectFrom('site_cache_rules').select(['id', 'rule']).where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('cache rule');
  const rules = rows.map((r) => readJson('site_cache_rules.rule', edge.cacheRule, r.rule));
  const prefixes = rules.flatMap((r) => (r.type === 'url' ? r.values : []));
  const extensions = [...new Set(rules.flatMap((r) => (r.type === 'fileTypes' ? r.values : [])))];
  const hosts = (await domainNames(deps, siteId)).filter((h) => !h.startsWith('*.'));
  let nodes = 0;
  if (prefixes.length) nodes = (await queueForZone(deps, principal, site.zoneID, 'clearUrlCache', { prefixes })).nodes.length;
  if (extensions.length && hosts.length) nodes = (await queueForZone(deps, principal, site.zoneID, 'clearCache', { hosts, extensions })).nodes.length;
  return { nodes };
}

type TaskRow = { id: number; type: string; urls: string; command_ids: string; created_at: string };

async function toTasks(deps: AppDeps, rows: TaskRow[]) {
  const commandIds = new Map(rows.map((r) => [r.id, readJson('site_cache_tasks.command_ids', idList, r.command_ids)]));
  const ids = [...commandIds.values()].flat();
  const commands = ids.length ? await deps.db.selectFrom('node_commands').select(['id', 'status', 'message']).where('id', 'in', ids).execute() : [];
  return rows.map((r) => {
    const mine = commands.filter((c) => commandIds.get(r.id)!.includes(c.id));
    const finished = mine.filter((c) => c.status === 'done' || c.status === 'failed');
    const status = !mine.length
      ? 'noNodes'
      : mine.some((c) => c.status === 'failed') && finished.length === mine.length
        ? 'failed'
        : finished.length === mine.length
          ? 'done'
          : mine.some((c) => c.status !== 'queued')
            ? 'running'
            : 'queued';
    return {
      id: r.id,
      type: r.type as 'warm',
      urls: readJson('site_cache_tasks.urls', stringList, r.urls),
      status: status as (typeof siteSettingSchemas.CACHE_TASK_STATUSES)[number],
      nodes: mine.length,
      finishedNodes: finished.length,
      messages: finished.map((c) => c.message ?? '').filter(Boolean),
      createdAt: r.created_at,
    };
  });
}

export async function listCacheTasks(deps: AppDeps, principal: Principal, siteId: number, page: { page: number; pageSize: number }) {
  await sitesRepo(deps, principal).get(siteId);
  const result = await paginate(deps.db.selectFrom('site_cache_tasks').select(['id', 'type', 'urls', 'command_ids', 'created_at']).where('site_id', '=', siteId), {
    page,
    sortable: {},
    defaultSort: { column: 'id', order: 'desc' },
  });
  return { data: await toTasks(deps, result.data), total: result.total };
}

/** Warms the cache: every enrolled node of the zone fetches the URLs through its own nginx. */
export async function createCacheTask(deps: AppDeps, principal: Principal, siteId: number, body: { type: 'warm'; urls: string[] }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await assertOwnUrls(deps, siteId, body.urls);
  const { nodes } = await queueForZone(deps, principal, site.zoneID, 'warmCache', { urls: body.urls });
  const row = await deps.db
    .insertInto('site_cache_tasks')
    .values({ site_id: siteId, type: body.type, urls: JSON.stringify(body.urls), command_ids: JSON.stringify(nodes.map((n) => n.id)), created_by: principal.accountId, created_at: now() })
    .returning(['id', 'type', 'urls', 'command_ids', 'created_at'])
    .executeTakeFirstOrThrow();
  return (await toTasks(deps, [row]))[0];
}
