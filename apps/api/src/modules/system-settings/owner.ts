import type { AppDeps } from '../../deps';
import { findAccount, type Account } from '../accounts/repo';
import { tenantRootId } from '../roles/service';
import { ancestorsOf } from './repo';

/**
 * The client whose system settings apply to an account: a client's tenant root, a user's client (the nearest
 * client above it); null for admins, who use the platform's own configuration.
 */
export async function settingsOwnerOf(deps: AppDeps, account: Account | number): Promise<number | null> {
  const a = typeof account === 'number' ? await findAccount(deps.db, account) : account;
  if (!a || a.auth === 'admin') return null;
  if (a.auth === 'client') return tenantRootId(deps, a);
  const path = a.tree_path.split('/').filter(Boolean).map(Number);
  const above = await ancestorsOf(deps.db, path);
  const nearest = path.reverse().find((id) => above.some((x) => x.id === id && x.auth === 'client')) ?? a.client_id;
  if (nearest === null) return null;
  const client = await findAccount(deps.db, nearest);
  return client ? tenantRootId(deps, client) : null;
}
