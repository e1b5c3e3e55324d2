import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { schemas } from '@edgekeep/contract';
import { loadConfig } from '../config';
import { createAccount } from '../modules/accounts/service';
import { allAccounts, findAccountByEmail } from '../modules/accounts/repo';
import { closeRuntime, createLogger, openRuntime } from '../runtime';

const USAGE = `usage:
  npm run accounts -- create --auth admin|client|user --email E [--name N] [--password P] [--root]
                           [--client EMAIL] [--no-second-factor]
  npm run accounts -- list [--auth admin|client|user]
Without --password a password is generated and printed once. --client makes a user (or sub-client) belong to
that client. --no-second-factor lets the account sign in without a mailed code (for scripts and tests).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    auth: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    password: { type: 'string' },
    root: { type: 'boolean', default: false },
    client: { type: 'string' },
    'no-second-factor': { type: 'boolean', default: false },
  },
});

const config = loadConfig();
const deps = await openRuntime(config, createLogger('warn'));
try {
  if (positionals[0] === 'create') {
    const auth = schemas.tier.parse(values.auth);
    const email = schemas.email.parse(values.email);
    const name = schemas.accountName.parse(values.name ?? email.split('@')[0].replace(/[^A-Za-z0-9-]/g, '-'));
    const password = values.password ? schemas.password.parse(values.password) : crypto.randomBytes(12).toString('base64url');
    const client = values.client ? await findAccountByEmail(deps.db, 'client', values.client) : undefined;
    if (values.client && !client) throw new Error(`no client account ${values.client}`);
    const account = await createAccount(deps, {
      auth,
      email,
      name,
      password,
      // Users made here are the top account of their tenant; a client made under --client is a sub-client.
      isRoot: values.root || auth === 'user' || (auth === 'client' && !client),
      secondFactor: values['no-second-factor'] ? 'none' : 'mail',
      clientId: auth === 'user' ? (client?.id ?? null) : null,
      parentClientId: auth === 'client' ? (client?.id ?? null) : null,
    });
    process.stdout.write(`created ${auth} account #${account.id} ${email}\n`);
    if (!values.password) process.stdout.write(`password (shown once): ${password}\n`);
  } else if (positionals[0] === 'list') {
    for (const a of await allAccounts(deps.db, values.auth ? schemas.tier.parse(values.auth) : undefined)) {
      process.stdout.write(`${a.id}\t${a.auth}\t${a.email}\t${a.name}${a.is_root ? '\troot' : ''}${a.enabled ? '' : '\tdisabled'}\n`);
    }
  } else {
    process.stdout.write(`${USAGE}\n`);
    process.exitCode = 2;
  }
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await closeRuntime(deps);
}
