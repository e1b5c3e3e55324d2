import type { Language } from '@edgekeep/contract/constants';
import { PERMISSION_CATALOGUE } from '@edgekeep/contract/permissions';
import type { Tier } from '@edgekeep/contract/tiers';

export type TreeNode = { key: string; title: string; disableCheckbox?: boolean; children?: TreeNode[] };

/** Group nodes are keyed apart from permission keys, so a checked group is never sent as a key. */
const GROUP = 'menu:';
export const isGroupKey = (key: string) => key.startsWith(GROUP);

/**
 * The role form's tree: the tier's keys grouped by menu, labelled in the console's language. Keys the signed-in
 * account does not hold itself cannot be granted (the API refuses them), so their boxes are disabled.
 */
export function permissionTree(tier: Tier, lang: Language, held: (key: string) => boolean): TreeNode[] {
  return PERMISSION_CATALOGUE[tier].map((group) => {
    const children = group.permissions.map((p) => ({ key: p.key, title: p.label[lang], disableCheckbox: !held(p.key) }));
    return { key: `${GROUP}${group.menu}`, title: group.label[lang], disableCheckbox: children.every((c) => c.disableCheckbox), children };
  });
}

/** The permission keys among the tree's checked keys, in catalogue order, known to the tier. */
export function checkedPermissions(tier: Tier, checked: readonly (string | number | bigint)[]): string[] {
  const set = new Set(checked.map(String));
  return PERMISSION_CATALOGUE[tier].flatMap((g) => g.permissions.map((p) => p.key)).filter((k) => set.has(k));
}
