import { Codes, type Tier } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { hashPassword } from '../../lib/passwords';
import { findAccountByEmail, insertAccount } from './repo';

export type NewAccount = {
  auth: Tier;
  email: string;
  name: string;
  password?: string;
  isRoot?: boolean;
  secondFactor?: 'mail' | 'none';
  clientId?: number | null;
  parentClientId?: number | null;
  parentUserId?: number | null;
  createdBy?: number | null;
};

/** Creates an account of any tier; with a password it is ready to sign in, without one it waits for the mail link. */
export async function createAccount(deps: AppDeps, input: NewAccount) {
  if (await findAccountByEmail(deps.db, input.auth, input.email)) throw new ApiError(Codes.DuplicateEmail);
  return insertAccount(deps.db, {
    auth: input.auth,
    email: input.email,
    name: input.name,
    password_hash: input.password ? await hashPassword(input.password) : null,
    is_root: input.isRoot ? 1 : 0,
    enabled: 1,
    login_notify: 0,
    grade: 0,
    client_id: input.clientId ?? null,
    parent_client_id: input.parentClientId ?? null,
    parent_user_id: input.parentUserId ?? null,
    email_confirmed: input.password ? 1 : 0,
    created_by: input.createdBy ?? null,
    second_factor: input.secondFactor ?? 'mail',
    max_log_export_times: 3,
  });
}
