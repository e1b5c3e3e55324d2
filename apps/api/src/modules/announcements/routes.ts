import { announcementRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { createAnnouncement, currentAnnouncements, listAnnouncements, removeAnnouncements, updateAnnouncement } from './service';

export function announcementsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.list, async ({ principal, query }) => listAnnouncements(deps, principal, query));
  registerRoute(app, deps, r.create, async ({ principal, body }) => ({ data: await createAnnouncement(deps, principal, body) }));
  registerRoute(app, deps, r.update, async ({ principal, body }) => ({ data: await updateAnnouncement(deps, principal, body) }));
  registerRoute(app, deps, r.remove, async ({ principal, body }) => {
    await removeAnnouncements(deps, principal, body.ids);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.user, async ({ principal, query }) => currentAnnouncements(deps, principal, query));
}
