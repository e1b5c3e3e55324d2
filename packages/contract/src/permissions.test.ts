import { describe, expect, it } from 'vitest';
import * as contract from './index';
import { PERMISSION_CATALOGUE, permissionKeys } from './permissions';
import { TIERS } from './tiers';

describe('permission catalogue', () => {
  it.each(TIERS)('%s: keys are unique, <resource>.<action>, labelled in three languages', (tier) => {
    const keys = permissionKeys(tier);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-zA-Z]+\.(view|edit|export)$/);
    for (const group of PERMISSION_CATALOGUE[tier]) {
      for (const label of [group.label, ...group.permissions.map((x) => x.label)]) {
        expect(label.en_US && label.zh_TW && label.zh_CN).toBeTruthy();
      }
    }
  });

  it('has the keys the issue names', () => {
    expect(permissionKeys('user')).toEqual(expect.arrayContaining(['sites.view', 'sites.edit', 'firewall.edit', 'logs.export']));
  });

  it("guards every route with a key of its tier's catalogue, so a role can grant it", () => {
    const routes = contract.routesOf(contract);
    expect(routes.length).toBeGreaterThan(300);
    const unknown = routes.filter((r) => r.permission && (TIERS as readonly string[]).includes(r.tier) && !permissionKeys(r.tier as (typeof TIERS)[number]).includes(r.permission));
    expect(unknown.map((r) => `${r.id}: ${r.permission}`)).toEqual([]);
  });
});
