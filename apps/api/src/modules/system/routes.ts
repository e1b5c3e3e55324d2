import { authRoutes, DEFAULT_BRANDING, FRONTEND_VERSION, systemRoutes, TIERS } from '@edgekeep/contract';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';

export function systemRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, systemRoutes.health, async () => {
    await sql`select 1`.execute(deps.db);
    return { data: { status: 'ok' as const, version: FRONTEND_VERSION, database: deps.dialect, time: new Date().toISOString() } };
  });
  // Custom branding is stored by the client tier's branding settings; until a client sets one, the defaults show.
  for (const tier of TIERS) {
    registerRoute(app, deps, authRoutes.logo[tier], async () => ({ data: { ...DEFAULT_BRANDING, l4AttackAnalysis: deps.config.l4AttackAnalysis } }));
  }
}
