import type { AppDeps } from './deps';
import { findAccountByEmail } from './modules/accounts/repo';
import { createAccount } from './modules/accounts/service';

const DEMO_CLIENT = 'demo-client@edgekeep.local';
const DEMO_USER = 'demo-user@edgekeep.local';

/**
 * DEMO=1: a living system to click through. Made once, then left as the operator changes it. Grows with each
 * capability (zones, nodes and sites join when they exist).
 */
export async function ensureDemo(deps: AppDeps, password: string) {
  if (await findAccountByEmail(deps.db, 'client', DEMO_CLIENT)) return;
  const client = await createAccount(deps, { auth: 'client', email: DEMO_CLIENT, name: 'demo-client', password, isRoot: true });
  await createAccount(deps, { auth: 'user', email: DEMO_USER, name: 'demo-user', password, clientId: client.id, createdBy: client.id });
  process.stdout.write(
    `\n  Demo accounts (password ${password}; sign-in codes appear in the log without SMTP):\n` +
      `    client ${DEMO_CLIENT}  at ${deps.config.publicUrl}/client/login\n` +
      `    user   ${DEMO_USER}  at ${deps.config.publicUrl}/user/login\n\n`,
  );
}
