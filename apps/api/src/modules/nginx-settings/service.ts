import { Codes, type clientSettingSchemas } from '@edgekeep/contract';
import { ApiError } from '../../http/errors';
import { nginxRefusal } from './dry-run';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { settingsClientId, zonesOfClient } from '../client-settings/repo';
import { asEdgeDirectives, readNginx, refusingNodes, writeNginx } from './repo';

type Context = (typeof clientSettingSchemas.NGINX_CONTEXTS)[number];

async function view(deps: AppDeps, clientId: number) {
  return { ...(await readNginx(deps.db, clientId)), refusals: await refusingNodes(deps.db, clientId) };
}

export async function nginxSettings(deps: AppDeps, principal: Principal) {
  return view(deps, await settingsClientId(deps, principal));
}

/**
 * Sets one context's directives and gives every zone of the client a new revision. Where the API's machine has the
 * edge's nginx, the configuration is first tested with it (101003 with nginx's words). Each node tests it again
 * with `nginx -t` before it takes it: a node that refuses keeps serving its last good one and reports the error,
 * which the answer lists.
 */
export async function setNginxDirectives(deps: AppDeps, principal: Principal, context: Context, directives: string) {
  const clientId = await settingsClientId(deps, principal);
  const current = await readNginx(deps.db, clientId);
  const text = directives.trim();
  if (current[context] !== text) {
    const next = { ...current, [context]: text };
    const refused = await nginxRefusal(asEdgeDirectives(next));
    if (refused) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'directives', message: refused }] } });
    await writeNginx(deps.db, clientId, next);
    await deps.revisions.bump(deps.db, await zonesOfClient(deps.db, clientId));
  }
  return view(deps, clientId);
}
