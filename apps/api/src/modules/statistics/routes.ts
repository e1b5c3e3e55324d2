import { adminStatisticsRoutes, statisticsRoutes, userDomainPickerRoutes as pickers } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { fileStamp } from '../../lib/csv';
import { domainsMeta, domainsTags } from './domain-pickers';
import { statisticsCsv, statisticsInfo, statisticsList, statisticsTop, timeSeries } from './service';

export function statisticsModule(app: FastifyInstance, deps: AppDeps) {
  for (const r of [statisticsRoutes.user, statisticsRoutes.client, adminStatisticsRoutes]) {
    registerRoute(app, deps, r.info, async ({ principal, body }) => ({ data: await statisticsInfo(deps, principal, body) }));
    registerRoute(app, deps, r.timeSeries, async ({ principal, body, query }) => timeSeries(deps, principal, body, query));
  }
  for (const r of [statisticsRoutes.user, statisticsRoutes.client]) {
    registerRoute(app, deps, r.top, async ({ principal, body }) => ({ data: await statisticsTop(deps, principal, body) }));
    registerRoute(app, deps, r.list, async ({ principal, body, query }) => statisticsList(deps, principal, body, query));
    registerRoute(app, deps, r.export, async ({ principal, body, query, reply }) => {
      const { text, window } = await statisticsCsv(deps, principal, body, query);
      reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="statistics-${body.groupBy}-${fileStamp(window.from)}-${fileStamp(window.to)}.csv"`);
      return text;
    });
  }
  registerRoute(app, deps, pickers.meta, async ({ principal, body }) => ({ data: await domainsMeta(deps, principal, body) }));
  registerRoute(app, deps, pickers.tags, async ({ principal, body }) => ({ data: await domainsTags(deps, principal, body) }));
}
