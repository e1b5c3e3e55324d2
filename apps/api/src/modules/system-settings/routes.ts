import { systemSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { registerRoute } from '../../http/route';
import { getEmailSetting, putEmailSetting, sendTestMail } from './email';
import { ownerOfPrincipal, readSetting, writeSetting } from './service';

export function systemSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  const ownerOf = (principal: Principal) => ownerOfPrincipal(deps, principal);
  registerRoute(app, deps, r.outgoingURL.get, async ({ principal }) => ({ data: await readSetting(deps, await ownerOf(principal), 'outgoingURL') }));
  registerRoute(app, deps, r.CDNRayLog.get, async ({ principal }) => ({ data: await readSetting(deps, await ownerOf(principal), 'CDNRayLog') }));
  registerRoute(app, deps, r.accountVerify.get, async ({ principal }) => ({ data: await readSetting(deps, await ownerOf(principal), 'accountVerify') }));
  registerRoute(app, deps, r.restrictGroupCIDRs.get, async ({ principal }) => ({ data: await readSetting(deps, await ownerOf(principal), 'restrictGroupCIDRs') }));
  registerRoute(app, deps, r.outgoingURL.put, async ({ principal, body }) => ({ data: await writeSetting(deps, await ownerOf(principal), 'outgoingURL', body) }));
  registerRoute(app, deps, r.CDNRayLog.put, async ({ principal, body }) => ({ data: await writeSetting(deps, await ownerOf(principal), 'CDNRayLog', body) }));
  registerRoute(app, deps, r.accountVerify.put, async ({ principal, body }) => ({ data: await writeSetting(deps, await ownerOf(principal), 'accountVerify', body) }));
  registerRoute(app, deps, r.restrictGroupCIDRs.put, async ({ principal, body }) => ({
    data: await writeSetting(deps, await ownerOf(principal), 'restrictGroupCIDRs', body),
  }));
  registerRoute(app, deps, r.email.get, async ({ principal }) => ({ data: await getEmailSetting(deps, await ownerOfPrincipal(deps, principal)) }));
  registerRoute(app, deps, r.email.put, async ({ principal, body }) => ({ data: await putEmailSetting(deps, await ownerOfPrincipal(deps, principal), body) }));
  registerRoute(app, deps, r.email.test, async ({ principal, body }) => ({ data: await sendTestMail(deps, await ownerOfPrincipal(deps, principal), body.to) }));
}
