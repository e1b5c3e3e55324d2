import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import { registrationRoutes } from './registration/routes';
import { selfRoutes } from './self/routes';
import { sessionRoutes } from './session/routes';
import { systemRoutesPlugin } from './system/routes';

/** Every resource module; each registers its own routes. */
export const MODULES: ((app: FastifyInstance, deps: AppDeps) => void)[] = [
  systemRoutesPlugin,
  sessionRoutes,
  selfRoutes,
  registrationRoutes,
];
