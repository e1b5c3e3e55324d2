import { clientSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import type { Principal } from '../../http/auth';
import { RATES, settingsClientId, triggerRatesOf, writeSetting } from './repo';

const triggerRates = async (deps: AppDeps, principal: Principal) => triggerRatesOf(deps.db, await settingsClientId(deps, principal));

/** The predefined trigger rates (spec §3): kept per client tenant, read by its users' firewall forms. */
export function clientSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.frequency, async ({ principal }) => ({ data: await triggerRates(deps, principal) }));
  registerRoute(app, deps, r.userFrequency, async ({ principal }) => ({ data: await triggerRates(deps, principal) }));
  registerRoute(app, deps, r.setFrequency, async ({ principal, body }) => {
    await writeSetting(deps.db, { clientId: await settingsClientId(deps, principal), name: RATES, value: body });
    return { data: await triggerRates(deps, principal) };
  });
}
