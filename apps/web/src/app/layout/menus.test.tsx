import { describe, expect, it } from 'vitest';
import { permissionKeys } from '@edgekeep/contract/permissions';
import { TIERS } from '@edgekeep/contract/tiers';
import { holds } from '../permissions';
import { MENUS, USERS_PATH, visibleMenu, type MenuEntry } from './menus';

const paths = (entries: MenuEntry[], parent = ''): string[] =>
  entries.flatMap((e) => [`${parent}/${e.path}`, ...paths(e.children ?? [], `${parent}/${e.path}`)]);

describe('menus by permission', () => {
  it('a root account holds every key, another account only its role\'s', () => {
    expect(holds({ isRoot: true, permissions: [] }, 'accounts.view')).toBe(true);
    expect(holds({ isRoot: false, permissions: ['roles.view'] }, 'roles.view')).toBe(true);
    expect(holds({ isRoot: false, permissions: ['roles.view'] }, 'accounts.view')).toBe(false);
    expect(holds({ isRoot: false, permissions: [] }, undefined)).toBe(true);
    expect(holds(undefined, 'accounts.view')).toBe(false);
  });

  it.each(TIERS)('%s: every key a menu entry asks for exists in the tier, and the users list has the spec path', (tier) => {
    const keys = new Set(permissionKeys(tier));
    const asked = (entries: MenuEntry[]): string[] => entries.flatMap((e) => [...(e.permission ? [e.permission] : []), ...asked(e.children ?? [])]);
    expect(asked(MENUS[tier]).filter((k) => !keys.has(k))).toEqual([]);
    expect(paths(MENUS[tier])).toContain(`/userManagement/${USERS_PATH[tier]}`);
  });

  it('hides entries whose key the account lacks, and groups left empty', () => {
    const role = (permissions: string[]) => (key: string | undefined) => holds({ isRoot: false, permissions }, key);
    const all = paths(visibleMenu(MENUS.user, role(permissionKeys('user'))));
    expect(all).toContain('/userManagement/usersList');
    const noAccounts = paths(visibleMenu(MENUS.user, role(permissionKeys('user').filter((k) => k !== 'accounts.view'))));
    expect(noAccounts).not.toContain('/userManagement/usersList');
    expect(noAccounts).toContain('/userManagement/roles');
    const nothing = paths(visibleMenu(MENUS.client, role([])));
    expect(nothing).toEqual(['/dashboard', '/userManagement', '/userManagement/userInformation', '/userManagement/apiDoc']);
  });
});
