import type { siteSettingSchemas } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { reachSite } from '../sites/repo';
import { queueForZone } from './node-queue';
import { siteSettingsRepo } from './repo';
import { assertOwnUrls, domainNames } from './site-urls';
import { idList, readJson, stringList } from '../../db/json-column';

/**
 * Empties what cache rules cache: the URL prefixes of URL rules, and the files of the rules' types on every
 * domain of the site.
 */
export async function purgeCacheRules(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  const rules = await repo.someCacheRules(ids);
  const prefixes = rules.flatMap((r) => (r.type === 'url' ? r.values : []));
  const extensions = [...new Set(rules.flatMap((r) => (r.type === 'fileTypes' ? r.values : [])))];
  const hosts = (await domainNames(deps, site)).filter((h) => !h.startsWith('*.'));
  let nodes = 0;
  if (prefixes.length) nodes = (await queueForZone(deps, principal, site.zoneID, 'clearUrlCache', { prefixes })).nodes.length;
  if (extensions.length && hosts.length) nodes = (await queueForZone(deps, principal, site.zoneID, 'clearCache', { hosts, extensions })).nodes.length;
  return { nodes };
}

type TaskRow = { id: number; type: string; urls: string; command_ids: string; created_at: string };

async function toTasks(repo: ReturnType<typeof siteSettingsRepo>, rows: TaskRow[]) {
  const commandIds = new Map(rows.map((r) => [r.id, readJson('site_cache_tasks.command_ids', idList, r.command_ids)]));
  const ids = [...commandIds.values()].flat();
  const commands = await repo.taskCommands(ids);
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
  const { repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  const result = await repo.cacheTasksPage(page);
  return { data: await toTasks(repo, result.data), total: result.total };
}

/** Warms the cache: every enrolled node of the zone fetches the URLs through its own nginx. */
export async function createCacheTask(deps: AppDeps, principal: Principal, siteId: number, body: { type: 'warm'; urls: string[] }) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await assertOwnUrls(deps, site, body.urls);
  const { nodes } = await queueForZone(deps, principal, site.zoneID, 'warmCache', { urls: body.urls });
  const row = await repo.addCacheTask({ type: body.type, urls: body.urls, commandIds: nodes.map((n) => n.id), createdBy: principal.accountId });
  return (await toTasks(repo, [row]))[0];
}
