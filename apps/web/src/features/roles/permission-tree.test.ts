import { describe, expect, it } from 'vitest';
import { PERMISSION_CATALOGUE, permissionKeys } from '@edgekeep/contract/permissions';
import { checkedPermissions, isGroupKey, permissionTree } from './permission-tree';

describe('the role form permission tree', () => {
  it('groups the tier keys by menu with labels in the chosen language', () => {
    const tree = permissionTree('user', 'zh_TW', () => true);
    expect(tree.map((g) => g.title)).toEqual(PERMISSION_CATALOGUE.user.map((g) => g.label.zh_TW));
    expect(tree.flatMap((g) => g.children!.map((c) => c.key))).toEqual(permissionKeys('user'));
    const sites = tree.find((g) => g.key === 'menu:sitesManagement')!;
    expect(sites.children!.find((c) => c.key === 'sites.view')!.title).toBe('檢視網站');
    expect(permissionTree('user', 'en_US', () => true)[0].title).toBe('Dashboard');
    expect(tree.every((g) => isGroupKey(g.key) && !g.disableCheckbox)).toBe(true);
  });

  it('disables the keys the signed-in account does not hold, and a group with none of them', () => {
    const tree = permissionTree('client', 'en_US', (k) => k.startsWith('accounts.'));
    const users = tree.find((g) => g.key === 'menu:userManagement')!;
    expect(users.disableCheckbox).toBe(false);
    expect(users.children!.filter((c) => !c.disableCheckbox).map((c) => c.key)).toEqual(['accounts.view', 'accounts.edit']);
    expect(tree.find((g) => g.key === 'menu:nodeManage')!.disableCheckbox).toBe(true);
  });

  it('sends only permission keys of the tier, never group keys', () => {
    expect(checkedPermissions('user', ['menu:sitesManagement', 'sites.edit', 'sites.view', 'licenses.view', 'nope'])).toEqual(['sites.view', 'sites.edit']);
  });
});
