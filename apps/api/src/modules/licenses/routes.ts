import { licenseRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { registerRoute } from '../../http/route';
import { clientLicenseView } from './limits';
import { licenseOverview, usageOfClient } from './overview';
import { licensedClientOf, registerUsageCounters } from './usage';
import { activateOffline, issueOffline, registrationRequest, unregisterOffline, updateOfflineKey } from './offline';
import * as licenses from './service';
import { licenseSigner } from './signing-key';

/** The root client account a client-tier caller acts for. */
const clientIdOf = (deps: AppDeps, principal: Principal) => licensedClientOf(deps, principal.accountId);

const ok = { data: { ok: true } };

export function licensesRoutes(app: FastifyInstance, deps: AppDeps) {
  registerUsageCounters();
  // The key pair is made on first start rather than when the first license is issued.
  licenseSigner(deps.config.dataDir);
  registerRoute(app, deps, r.list, async ({ query }) => licenses.listLicenses(deps, 'online', query));
  registerRoute(app, deps, r.create, async ({ body }) => ({ data: await licenses.createLicense(deps, body) }));
  registerRoute(app, deps, r.update, async ({ body }) => ({ data: await licenses.editLicense(deps, 'online', body) }));
  registerRoute(app, deps, r.remove, async ({ body }) => (await licenses.removeLicenses(deps, 'online', body.ids), ok));
  registerRoute(app, deps, r.issue, async ({ body }) => ({ data: await licenses.issueLicense(deps, body) }));
  registerRoute(app, deps, r.orders, async ({ params }) => ({ data: await licenses.listOrders(deps, params.userId) }));
  registerRoute(app, deps, r.setOrders, async ({ params, body }) => ({ data: await licenses.replaceOrders(deps, params.userId, body.orders) }));
  registerRoute(app, deps, r.overview, async () => ({ data: await licenseOverview(deps) }));
  registerRoute(app, deps, r.usage, async ({ params }) => ({ data: await usageOfClient(deps, params.userId) }));
  registerRoute(app, deps, r.offlines, async ({ query }) => licenses.listLicenses(deps, 'offline', query));
  registerRoute(app, deps, r.updateOffline, async ({ body }) => ({ data: await licenses.editLicense(deps, 'offline', body) }));
  registerRoute(app, deps, r.removeOffline, async ({ body }) => (await licenses.removeLicenses(deps, 'offline', body.ids), ok));
  registerRoute(app, deps, r.issueOffline, async ({ body }) => ({ data: await issueOffline(deps, body) }));
  registerRoute(app, deps, r.unregister, async ({ body }) => (await unregisterOffline(deps, body.ids), ok));
  registerRoute(app, deps, r.activate, async ({ principal, body }) => ({ data: await activateOffline(deps, await clientIdOf(deps, principal), body.key) }));
  registerRoute(app, deps, r.updateKey, async ({ principal, query }) => ({
    data: await updateOfflineKey(deps, await clientIdOf(deps, principal), query.key),
  }));
  registerRoute(app, deps, r.mine, async ({ principal }) => ({ data: await clientLicenseView(deps, await clientIdOf(deps, principal)) }));
  registerRoute(app, deps, r.register, async ({ principal }) => ({ data: await registrationRequest(deps, await clientIdOf(deps, principal)) }));
}
