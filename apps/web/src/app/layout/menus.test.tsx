import { describe, expect, it } from 'vitest';
import { permissionKeys } from '@edgekeep/contract/permissions';
import { TIERS } from '@edgekeep/contract/tiers';
import { USERS_PATH } from './menu-paths';
import { MENUS, menuTrail, visibleMenu, type MenuEntry } from './menus';

const paths = (entries: MenuEntry[], parent = ''): string[] =>
  entries.flatMap((e) => [`${parent}/${e.path}`, ...paths(e.children ?? [], `${parent}/${e.path}`)]);

describe('menus by permission', () => {
  it.each(TIERS)('%s: every key a menu entry asks for exists in the tier, and the users list has the spec path', (tier) => {
    const keys = new Set(permissionKeys(tier));
    const asked = (entries: MenuEntry[]): string[] => entries.flatMap((e) => [...(e.permission ? [e.permission] : []), ...asked(e.children ?? [])]);
    expect(asked(MENUS[tier]).filter((k) => !keys.has(k))).toEqual([]);
    expect(paths(MENUS[tier])).toContain(`/userManagement/${USERS_PATH[tier]}`);
  });

  it('hides entries whose key the account lacks, and groups left empty', () => {
    const role = (permissions: string[]) => (key: string) => permissions.includes(key);
    const all = paths(visibleMenu(MENUS.user, role(permissionKeys('user'))));
    expect(all).toContain('/userManagement/usersList');
    const noSites = paths(visibleMenu(MENUS.client, role(permissionKeys('client').filter((k) => k !== 'sites.view'))));
    expect(noSites).toContain('/nodeManage/zonesList');
    expect(noSites).not.toContain('/nodeManage/sitesList');
    const noUserSites = paths(visibleMenu(MENUS.user, role(permissionKeys('user').filter((k) => k !== 'sites.view'))));
    expect(all).toContain('/sitesManagement/sites');
    expect(noUserSites.filter((p) => p.startsWith('/sitesManagement'))).toEqual([]);
    const noAccounts = paths(visibleMenu(MENUS.user, role(permissionKeys('user').filter((k) => k !== 'accounts.view'))));
    expect(noAccounts).not.toContain('/userManagement/usersList');
    expect(noAccounts).toContain('/userManagement/roles');
    const nothing = paths(visibleMenu(MENUS.client, role([])));
    expect(nothing).toEqual([
      '/dashboard',
      '/userManagement',
      '/userManagement/userInformation',
      '/userManagement/apiDoc',
    ]);
  });

  it.each(['user', 'client'] as const)('%s: the layer-4 attack analysis entry is there only when the server turns it on', (tier) => {
    const can = () => true;
    expect(paths(visibleMenu(MENUS[tier], can))).not.toContain('/dataAnalysis/l4AttackAnalysis');
    expect(paths(visibleMenu(MENUS[tier], can, { l4AttackAnalysis: false }))).not.toContain('/dataAnalysis/l4AttackAnalysis');
    expect(paths(visibleMenu(MENUS[tier], can, { l4AttackAnalysis: true }))).toContain('/dataAnalysis/l4AttackAnalysis');
  });

  it('names the trail of a path from the menu: a screen below an entry keeps it, account screens too, an unknown path none', () => {
    const labels = (tier: 'user' | 'client', path: string) => menuTrail(tier, path.split('/')).map((e) => e.label);
    expect(labels('user', 'sitesManagement/sitesSetting/12/shop')).toEqual(['sitesManagement', 'sitesSetting']);
    expect(labels('client', 'userManagement/roles/create')).toEqual(['userManagement', 'roles']);
    expect(labels('user', 'certificates')).toEqual(['certificates']);
    expect(labels('client', 'changePassword')).toEqual(['changePassword']);
    expect(labels('user', 'no-such-screen')).toEqual([]);
  });
});
