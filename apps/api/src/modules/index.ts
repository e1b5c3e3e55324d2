import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import { accountsRoutes } from './accounts/routes';
import { apiTokensRoutes } from './api-tokens/routes';
import { auditRoutes } from './audit/routes';
import { licensesRoutes } from './licenses/routes';
import { registrationRoutes } from './registration/routes';
import { rolesRoutes } from './roles/routes';
import { selfRoutes } from './self/routes';
import { sessionRoutes } from './session/routes';
import { systemRoutesPlugin } from './system/routes';

/** Every resource module; each registers its own routes. */
export const MODULES: ((app: FastifyInstance, deps: AppDeps) => void)[] = [
  auditRoutes,
  systemRoutesPlugin,
  sessionRoutes,
  selfRoutes,
  registrationRoutes,
  accountsRoutes,
  rolesRoutes,
  apiTokensRoutes,
  licensesRoutes,
];
