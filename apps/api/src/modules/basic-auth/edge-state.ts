import type { edge } from '@edgekeep/contract';
import type { Db } from '../../db';
import { readRuleConfig, readUser } from './stored';

/** Each site's basic-auth rules with the hashed users of their groups, for every domain of the site. */
export async function basicAuthOf(db: Db, siteIds: number[]) {
  const result = new Map<number, edge.BasicAuthRule[]>();
  if (!siteIds.length) return result;
  const rows = await db.selectFrom('site_modules').select(['id', 'site_id', 'kind', 'config']).where('site_id', 'in', siteIds).where('kind', 'in', ['authRule', 'authGroup']).orderBy('id').execute();
  const groupIds = rows.filter((r) => r.kind === 'authGroup').map((r) => r.id);
  const users = groupIds.length
    ? await db.selectFrom('site_module_items').select(['module_id', 'item']).where('module_id', 'in', groupIds).orderBy('id').execute()
    : [];
  for (const r of rows.filter((x) => x.kind === 'authRule')) {
    const c = readRuleConfig(r.config);
    const members = users
      .filter((u) => c.groupIDs.includes(u.module_id))
      .map((u) => {
        const { user, salt, hash } = readUser(u.item);
        return { user, salt, hash };
      });
    result.set(r.site_id, [...(result.get(r.site_id) ?? []), { match: c.match, pattern: c.pattern, realm: c.realm, users: members }]);
  }
  return result;
}
